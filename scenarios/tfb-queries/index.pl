#!/usr/bin/perl
# TFB's multiple queries: N World rows, one query each
use strict;
use warnings;

my ($dir) = $ENV{SCRIPT_FILENAME} =~ m{^(.*)/};
require "$dir/../lib/perl/BenchTfb.pm" unless defined &BenchTfb::print_json;
my $db = BenchTfb::connect_db();
my $rows = BenchTfb::world_rows($db, BenchTfb::count('queries'));
$db->disconnect;
BenchTfb::print_json($rows);
