#!/usr/bin/perl
# TFB's json: the object serialised on every request
use strict;
use warnings;

my ($dir) = $ENV{SCRIPT_FILENAME} =~ m{^(.*)/};
require "$dir/../lib/perl/BenchTfb.pm" unless defined &BenchTfb::json_text;
BenchTfb::print_json({ message => 'Hello, World!' });
