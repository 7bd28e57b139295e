<?php
// Invoice processor: applies discounts and taxes to a batch of orders
// and prints a summary line per customer.

declare(strict_types=1);

interface Discount
{
    public function apply(float $amount): float;
}

final class PercentDiscount implements Discount
{
    public function __construct(private float $percent) {}

    public function apply(float $amount): float
    {
        return $amount * (1 - $this->percent / 100);
    }

    public function label(): string
    {
        return "{$this->percent}% off";
    }
}

final class NoDiscount implements Discount
{
    public function apply(float $amount): float
    {
        return $amount;
    }
}

class LineItem
{
    public function __construct(public string $sku, public int $qty, public float $unitPrice) {}

    public function total(): float
    {
        return $this->qty * $this->unitPrice;
    }
}

class Order
{
    private array $items = [];

    public function __construct(public string $customer, public string $region) {}

    public function add(LineItem $item): self
    {
        $this->items[] = $item;
        return $this;
    }

    public function items(): array
    {
        return $this->items;
    }
}

class TaxTable
{
    private const RATES = ['eu' => 0.21, 'us' => 0.07];

    public static function rateFor(string $region): float
    {
        return self::RATES[$region] ?? 0.0;
    }
}

class InvoiceCalculator
{
    public function __construct(private Discount $discount) {}

    public function subtotal(Order $order): float
    {
        $sum = 0.0;
        foreach ($order->items() as $item) {
            $sum += $item->total();
        }
        return $sum;
    }

    public function total(Order $order): float
    {
        $net = $this->discount->apply($this->subtotal($order));
        $tax = $net * TaxTable::rateFor($order->region);
        return round($net + $tax, 2);
    }

    public function discountLabel(): string
    {
        return $this->discount->label();
    }
}

function discountFor(string $customer): Discount
{
    return match (true) {
        str_starts_with($customer, 'VIP') => new PercentDiscount(15.0),
        default => new NoDiscount(),
    };
}

function formatLine(Order $order, float $total): string
{
    $count = count($order->items());
    return sprintf("%-22s %2d items %9.2f", $order->customer, $count, $total);
}

function summarize(array $orders): array
{
    $lines = [];
    foreach ($orders as $order) {
        $calc = new InvoiceCalculator(discountFor($order->customer));
        $total = $calc->total($order);
        $lines[] = formatLine($order, $total) . '  ' . $calc->discountLabel();
    }
    return $lines;
}

$orders = [
    (new Order('VIP-Hartmann', 'eu'))
        ->add(new LineItem('A-100', 3, 19.99))
        ->add(new LineItem('B-220', 1, 249.00)),
    (new Order('Oakridge Supplies Ltd', 'eu'))
        ->add(new LineItem('C-310', 12, 4.50)),
    (new Order('Nakamura', 'us'))
        ->add(new LineItem('A-100', 40, 19.99)),
];

foreach (summarize($orders) as $line) {
    echo $line, PHP_EOL;
}
