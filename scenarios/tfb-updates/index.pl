#!/usr/bin/perl
# TFB's updates: N World rows read one query each, given new numbers, written back in one batch
use strict;
use warnings;

my ($dir) = $ENV{SCRIPT_FILENAME} =~ m{^(.*)/};
require "$dir/../lib/perl/BenchTfb.pm" unless defined &BenchTfb::print_json;
my $db = BenchTfb::connect_db();
my $rows = BenchTfb::world_rows($db, BenchTfb::count('queries'));
$_->{randomNumber} = BenchTfb::random_id() for @$rows;
BenchTfb::write_world_rows($db, $rows);
$db->disconnect;
BenchTfb::print_json($rows);
