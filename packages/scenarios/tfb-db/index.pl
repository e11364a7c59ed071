#!/usr/bin/perl
# TFB's single query: one World row by a random id
use strict;
use warnings;

my ($dir) = $ENV{SCRIPT_FILENAME} =~ m{^(.*)/};
require "$dir/../lib/perl/BenchTfb.pm" unless defined &BenchTfb::json_text;
BenchTfb::print_json(BenchTfb::db_row());
