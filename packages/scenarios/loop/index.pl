#!/usr/bin/perl
use strict;
use warnings;

print "Content-Type: text/plain; charset=utf-8\r\n\r\n";
for my $n (1 .. 4000) {
    print "Hello, World $n\n";
}
