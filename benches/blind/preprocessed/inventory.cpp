#include <vector>
#include <string>
#include <algorithm>

struct Item {
    std::string name;
    int qty;
    double price() const { return qty * 1.5; }
};

template <typename T>
struct Inventory {
    std::vector<T> items;
    void add(const T &t) { items.push_back(t); }
    double value() const {
        double v = 0;
        for (const auto &i : items) v += i.price();
        return v;
    }
    const T *find(const std::string &n) const {
        auto it = std::find_if(items.begin(), items.end(), [&](const T &i) { return i.name == n; });
        return it == items.end() ? nullptr : &*it;
    }
};

int count_low(const Inventory<Item> &inv) {
    int c = 0;
    for (auto &i : inv.items) if (i.qty < 3) c++;
    return c;
}

int main() {
    Inventory<Item> inv;
    inv.add(Item{"bolt", 10});
    inv.add(Item{"nut", 2});
    const Item *p = inv.find("nut");
    int low = count_low(inv);
    std::string s = p->name + std::to_string(low);
    inv.find(42);
    return (int)inv.value() + (int)s.size();
}
