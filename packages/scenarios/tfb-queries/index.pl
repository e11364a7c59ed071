#!/usr/bin/perl
# TFB's multiple queries: N World rows, one query each
use strict;
use warnings;

my ($dir) = $ENV{SCRIPT_FILENAME} =~ m{^(.*)/};
require "$dir/../lib/perl/BenchTfb.pm" unless defined &BenchTfb::json_text;
BenchTfb::print_json(BenchTfb::query_rows());
