<?php
declare(strict_types=1);

// invoice.php -- turn an exported order sheet into a plain-text invoice.
// Run: php invoice.php

const VAT_RATE = 19;

final class Money
{
    public static function format(int $cents, string $currency = 'EUR'): string
    {
        $sign = $cents < 0 ? '-' : '';
        $cents = abs($cents);
        return sprintf('%s%d.%02d %s', $sign, intdiv($cents, 100), $cents % 100, $currency);
    }
}

final class Line
{
    public function __construct(
        public string $sku,
        public string $title,
        public int $qty,
        public $unitCents,
    ) {}

    public function total(): int
    {
        return $this->qty * (int) $this->unitCents;
    }
}

final class Invoice
{
    /** @var Line[] */
    private array $lines = [];

    public function add(Line $line): void
    {
        $this->lines[] = $line;
    }

    public function subtotal(): int
    {
        return array_sum(array_map(fn (Line $l) => $l->total(), $this->lines));
    }

    public function render(): string
    {
        $out = [];
        foreach ($this->lines as $l) {
            $out[] = sprintf('%-8s %-22s %3d x %12s', $l->sku, $l->title, $l->qty,
                Money::format($l->unitCents));
        }
        $sub = $this->subtotal();
        $vat = intdiv($sub * VAT_RATE, 100);
        $out[] = str_repeat('-', 52);
        $out[] = sprintf('%-40s %12s', 'Subtotal', Money::format($sub));
        $out[] = sprintf('%-40s %12s', 'VAT ' . VAT_RATE . '%', Money::format($vat));
        $out[] = sprintf('%-40s %12s', 'Total', Money::format($sub + $vat));
        return implode("\n", $out) . "\n";
    }
}

// rows as they come out of the shop's CSV export
$sheet = <<<CSV
sku;title;qty;unit_cents
A-100;USB-C cable 1m;3;899
B-220;Laptop stand;1;3450
C-310;Wireless mouse;2;2199
CSV;

function parse_sheet(string $csv): array
{
    $rows = array_map(fn ($r) => explode(';', $r), explode("\n", trim($csv)));
    $head = array_shift($rows);
    return array_map(fn ($r) => array_combine($head, $r), $rows);
}

$invoice = new Invoice();
foreach (parse_sheet($sheet) as $row) {
    $invoice->add(new Line($row['sku'], $row['title'], (int) $row['qty'], $row['unit_cents']));
}
echo $invoice->render();
