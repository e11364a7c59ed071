#!/usr/bin/perl
# TFB's updates: N World rows read one query each, given new numbers, written back one UPDATE a row in a transaction
use strict;
use warnings;

my ($dir) = $ENV{SCRIPT_FILENAME} =~ m{^(.*)/};
require "$dir/../lib/perl/BenchTfb.pm" unless defined &BenchTfb::json_text;
BenchTfb::print_json(BenchTfb::updated_rows());
