#!/usr/bin/perl
use strict;
use warnings;

my ($dir) = $ENV{SCRIPT_FILENAME} =~ m{^(.*)/};
open my $fh, '<:raw', "$dir/fixtures/block.txt" or die "block.txt: $!";
my $block = do { local $/; <$fh> };
close $fh;
binmode STDOUT;
print "Content-Type: text/plain; charset=utf-8\r\n\r\n";
print $block;
