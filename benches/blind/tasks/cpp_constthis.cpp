// inventory.cpp -- small inventory/ledger model used by the reporting tool.
// Build: g++ -std=c++17 -Wall -c inventory.cpp
//
// Bug report: after refactoring Ledger::balance() the report code no longer
// compiles (see the error in summarize<>).

namespace inv {

typedef unsigned long size_type;

template <typename T>
class Array {
public:
    Array() : data_(0), size_(0), cap_(0) {}
    ~Array() { delete[] data_; }

    void push(const T& v) {
        if (size_ == cap_) grow();
        data_[size_++] = v;
    }
    T& operator[](size_type i) { return data_[i]; }
    const T& operator[](size_type i) const { return data_[i]; }
    size_type size() const { return size_; }
    bool empty() const { return size_ == 0; }

    const T* begin() const { return data_; }
    const T* end() const { return data_ + size_; }

private:
    void grow() {
        size_type ncap = cap_ ? cap_ * 2 : 4;
        T* nd = new T[ncap];
        for (size_type i = 0; i < size_; ++i) nd[i] = data_[i];
        delete[] data_;
        data_ = nd;
        cap_ = ncap;
    }
    Array(const Array&);            // not copyable
    Array& operator=(const Array&); // not assignable

    T* data_;
    size_type size_;
    size_type cap_;
};

struct Money {
    long cents;
    Money() : cents(0) {}
    explicit Money(long c) : cents(c) {}
    Money operator+(const Money& o) const { return Money(cents + o.cents); }
    Money operator-(const Money& o) const { return Money(cents - o.cents); }
    Money& operator+=(const Money& o) { cents += o.cents; return *this; }
    bool operator<(const Money& o) const { return cents < o.cents; }
};

struct Item {
    int sku;
    int quantity;
    Money unit_price;

    Money value() const { return Money(unit_price.cents * quantity); }
};

class Warehouse {
public:
    explicit Warehouse(int id) : id_(id) {}

    void add(const Item& it) { items_.push(it); }

    Money total() const {
        Money m;
        for (const Item* p = items_.begin(); p != items_.end(); ++p)
            m += p->value();
        return m;
    }
    int id() const { return id_; }
    size_type count() const { return items_.size(); }

private:
    int id_;
    Array<Item> items_;
};

class Ledger {
public:
    Ledger() : opened_(false) {}

    void open() { opened_ = true; }
    void post(const Money& m) { entries_.push(m); }

    // Refactored: balance() now caches its result, so it lost its const.
    Money balance() {
        if (!cached_valid_) {
            Money m;
            for (size_type i = 0; i < entries_.size(); ++i)
                m += entries_[i];
            cached_ = m;
            cached_valid_ = true;
        }
        return cached_;
    }

    bool is_open() const { return opened_; }
    size_type entries() const { return entries_.size(); }

private:
    bool opened_;
    bool cached_valid_ = false;
    Money cached_;
    Array<Money> entries_;
};

template <typename A, typename B>
struct Pair {
    A first;
    B second;
};

template <typename T>
const T& max_of(const T& a, const T& b) {
    return (a < b) ? b : a;
}

// Reports ------------------------------------------------------------------

struct Report {
    Money stock;
    Money cash;
    int warehouses;
};

template <typename Books>
Money summarize(const Books& books, const Warehouse& w) {
    Money stock = w.total();
    // error: the ledger is const here, balance() is not
    Money cash = books.balance();
    return max_of(stock, cash);
}

template <typename Books>
Report build_report(const Books& books, const Warehouse* ws, int n) {
    Report r;
    r.warehouses = n;
    for (int i = 0; i < n; ++i) {
        r.stock += ws[i].total();
    }
    r.cash = summarize(books, ws[0]);
    return r;
}

inline int count_open(const Ledger* ls, int n) {
    int c = 0;
    for (int i = 0; i < n; ++i)
        if (ls[i].is_open()) ++c;
    return c;
}

} // namespace inv

// Driver -------------------------------------------------------------------

static inv::Money cents(long c) { return inv::Money(c); }

int run_inventory() {
    inv::Warehouse ws[2] = { inv::Warehouse(1), inv::Warehouse(2) };
    inv::Item a = { 1001, 3, cents(250) };
    inv::Item b = { 1002, 1, cents(9900) };
    ws[0].add(a);
    ws[1].add(b);

    inv::Ledger books;
    books.open();
    books.post(cents(12000));
    books.post(cents(-300));

    inv::Report r = inv::build_report(books, ws, 2);
    inv::Pair<int, long> p = { r.warehouses, r.stock.cents };
    return p.first + (int)(p.second % 7) + inv::count_open(&books, 1);
}
