#!/usr/bin/perl
# TFB's fortunes: every row, one added, sorted, escaped into the table
use strict;
use warnings;

my ($dir) = $ENV{SCRIPT_FILENAME} =~ m{^(.*)/};
require "$dir/../lib/perl/BenchTfb.pm" unless defined &BenchTfb::json_text;
print "Content-Type: text/html; charset=utf-8\r\n\r\n", BenchTfb::fortunes_html();
