#!/usr/bin/perl
use strict;
use warnings;

# On-call roster: for each site, list the teams, their members and who is
# on call this week, then print a per-site summary.

my $week = 37;

my %org = (
    berlin => {
        timezone => 'Europe/Berlin',
        teams    => [
            {
                name    => 'storage',
                lead    => 'jkramer',
                members => [ 'jkramer', 'mpetrov', 'lschulz' ],
                pager   => '+49-30-555-0101',
            },
            {
                name    => 'network',
                lead    => 'okaya',
                members => [ 'okaya', 'tbauer' ],
                pager   => '+49-30-555-0102',
            },
        ],
    },
    lisbon => {
        timezone => 'Europe/Lisbon',
        teams    => [
            {
                name    => 'database',
                lead    => 'asilva',
                members => [ 'asilva', 'rcosta', 'mferreira', 'psousa' ],
                pager   => '+351-21-555-0201',
            },
            {
                name    => 'frontend',
                lead    => 'dmatos',
                member  => [ 'dmatos', 'cnunes' ],
                pager   => '+351-21-555-0202',
            },
        ],
    },
);

my %holidays = (
    mpetrov => [ 36, 37 ],
    rcosta  => [ 37 ],
);

sub is_away {
    my ($who, $w) = @_;
    return scalar grep { $_ == $w } @{ $holidays{$who} || [] };
}

sub on_call {
    my ($team, $w) = @_;
    my @pool = grep { !is_away($_, $w) } @{ $team->{members} };
    return $team->{lead} unless @pool;
    return $pool[ $w % scalar @pool ];
}

sub site_summary {
    my ($site) = @_;
    my $info = $org{$site};
    my %summary = (
        site     => $site,
        timezone => $info->{timezone},
        people   => 0,
        rota     => [],
    );
    for my $team (sort { $a->{name} cmp $b->{name} } @{ $info->{teams} }) {
        $summary{people} += @{ $team->{members} };
        push @{ $summary{rota} }, {
            team   => $team->{name},
            person => on_call($team, $week),
            pager  => $team->{pager},
        };
    }
    return \%summary;
}

for my $site (sort keys %org) {
    my $s = site_summary($site);
    printf "%s (%s): %d people\n", $s->{site}, $s->{timezone}, $s->{people};
    for my $r (@{ $s->{rota} }) {
        printf "  %-10s %-10s %s\n", $r->{team}, $r->{person}, $r->{pager};
    }
}
