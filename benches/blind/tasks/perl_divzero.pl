#!/usr/bin/perl
use strict;
use warnings;

# Inventory report generator: reads a small built-in catalogue, groups the
# items by warehouse, and prints per-warehouse statistics.

my %config = (
    currency  => 'EUR',
    precision => 2,
    verbose   => 0,
    regions   => [ 'north', 'south', 'east' ],
);

my @catalogue = (
    { sku => 'A-100', name => 'bolt',    qty => 120, price => 0.15, wh => 'north' },
    { sku => 'A-101', name => 'nut',     qty => 300, price => 0.05, wh => 'north' },
    { sku => 'B-200', name => 'washer',  qty => 0,   price => 0.02, wh => 'south' },
    { sku => 'B-201', name => 'spring',  qty => 45,  price => 1.20, wh => 'south' },
    { sku => 'C-300', name => 'hinge',   qty => 12,  price => 3.75, wh => 'east'  },
    { sku => 'C-301', name => 'bracket', qty => 0,   price => 2.10, wh => 'east'  },
);

sub log_msg {
    my ($level, $msg) = @_;
    return unless $config{verbose} || $level eq 'warn';
    printf STDERR "[%s] %s\n", $level, $msg;
}

sub format_money {
    my ($amount) = @_;
    return sprintf("%.*f %s", $config{precision}, $amount, $config{currency});
}

sub group_by_warehouse {
    my (@items) = @_;
    my %groups;
    for my $item (@items) {
        push @{ $groups{ $item->{wh} } }, $item;
    }
    return \%groups;
}

sub total_value {
    my ($items) = @_;
    my $sum = 0;
    foreach my $it (@$items) {
        $sum += $it->{qty} * $it->{price};
    }
    return $sum;
}

sub stocked_count {
    my ($items) = @_;
    my $n = 0;
    for my $it (@$items) {
        $n++ if $it->{qty} > 0;
    }
    return $n;
}

sub average_price_of_stocked {
    my ($items) = @_;
    my $total = 0;
    for my $it (@$items) {
        next unless $it->{qty} > 0;
        $total += $it->{price};
    }
    my $count = stocked_count($items);
    # BUG: a warehouse where nothing is in stock has count 0
    return $total / $count;
}

sub warehouse_stats {
    my ($name, $items) = @_;
    my %s;
    $s{name}  = $name;
    $s{value} = total_value($items);
    $s{avg}   = average_price_of_stocked($items);
    $s{lines} = scalar @$items;
    log_msg('info', "computed stats for $name");
    return \%s;
}

sub print_report {
    my ($stats) = @_;
    print "Warehouse report\n";
    print "================\n";
    foreach my $s (sort { $a->{name} cmp $b->{name} } @$stats) {
        printf "%-8s lines=%d value=%s avg=%s\n",
            $s->{name}, $s->{lines}, format_money($s->{value}), format_money($s->{avg});
    }
}

sub main {
    my $groups = group_by_warehouse(@catalogue);
    my @stats;
    for my $region (@{ $config{regions} }) {
        my $items = $groups->{$region} || [];
        if (!@$items) {
            log_msg('warn', "no items in $region");
            next;
        }
        if ($region eq 'east') {
            # east only keeps discontinued parts now
            $items = [ grep { $_->{qty} == 0 } @$items ];
        }
        push @stats, warehouse_stats($region, $items);
    }
    print_report(\@stats);
    return 0;
}

exit main();
