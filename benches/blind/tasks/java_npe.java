import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

// Small order-processing demo: loads a catalogue, prices a few orders
// and prints an invoice summary per customer.
class Shop {
    public static void main(String[] args) {
        Catalogue cat = new Catalogue();
        cat.add(new Product("A-100", "Widget", 250));
        cat.add(new Product("A-200", "Gadget", 1299));
        cat.add(new Product("B-310", "Sprocket", 75));
        cat.add(new Product("C-042", "Flange", 410));

        List<Order> orders = new ArrayList<>();
        orders.add(new Order("alice").line("A-100", 4).line("B-310", 10));
        orders.add(new Order("bob").line("A-200", 1));
        orders.add(new Order("carol").line("C-042", 2).line("A-210", 3));
        orders.add(new Order("dave").line("B-310", 1));

        Billing billing = new Billing(cat, 20);
        long grand = 0;
        for (Order o : orders) {
            long total = billing.invoice(o);
            System.out.printf("%-8s %10s%n", o.customer, Billing.money(total));
            grand += total;
        }
        System.out.println("total    " + Billing.money(grand));
    }
}

record Product(String sku, String name, long cents) {}

class Catalogue {
    private final Map<String, Product> bySku = new HashMap<>();

    void add(Product p) {
        bySku.put(p.sku(), p);
    }

    Product find(String sku) {
        return bySku.get(sku.trim().toUpperCase());
    }
}

class Order {
    final String customer;
    final List<String> skus = new ArrayList<>();
    final List<Integer> qty = new ArrayList<>();

    Order(String customer) {
        this.customer = customer;
    }

    Order line(String sku, int n) {
        skus.add(sku);
        qty.add(n);
        return this;
    }
}

class Billing {
    private final Catalogue cat;
    private final int vatPercent;

    Billing(Catalogue cat, int vatPercent) {
        this.cat = cat;
        this.vatPercent = vatPercent;
    }

    static String money(long cents) {
        return String.format("%d.%02d", cents / 100, cents % 100);
    }

    long unitPrice(String sku) {
        Product p = cat.find(sku);
        return p.cents();
    }

    long lineTotal(String sku, int n) {
        long net = unitPrice(sku) * n;
        return net + net * vatPercent / 100;
    }

    long invoice(Order o) {
        long sum = 0;
        for (int i = 0; i < o.skus.size(); i++) {
            sum += lineTotal(o.skus.get(i), o.qty.get(i));
        }
        return sum;
    }
}
