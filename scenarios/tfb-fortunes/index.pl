#!/usr/bin/perl
# TFB's fortunes: every row, one added, sorted, escaped into the table
use strict;
use warnings;

my ($dir) = $ENV{SCRIPT_FILENAME} =~ m{^(.*)/};
require "$dir/../lib/perl/BenchTfb.pm" unless defined &BenchTfb::print_json;
BenchTfb::print_fortunes();
