#!/usr/bin/perl
# TFB's cached queries: N random World rows from a cache (a variable where the process lives on, memcached under CGI)
use strict;
use warnings;

my ($dir) = $ENV{SCRIPT_FILENAME} =~ m{^(.*)/};
require "$dir/../lib/perl/BenchTfb.pm" unless defined &BenchTfb::json_text;
BenchTfb::print_json(BenchTfb::cached_rows(BenchTfb::count('count')));
