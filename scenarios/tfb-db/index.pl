#!/usr/bin/perl
# TFB's single query: one World row by a random id
use strict;
use warnings;

my ($dir) = $ENV{SCRIPT_FILENAME} =~ m{^(.*)/};
require "$dir/../lib/perl/BenchTfb.pm" unless defined &BenchTfb::print_json;
my $db = BenchTfb::connect_db();
my $row = BenchTfb::world_row($db->prepare('SELECT id, randomNumber FROM World WHERE id = ?'));
$db->disconnect;
BenchTfb::print_json($row);
