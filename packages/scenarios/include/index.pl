#!/usr/bin/perl
use strict;
use warnings;

my ($dir) = $ENV{SCRIPT_FILENAME} =~ m{^(.*)/};
my @parts;
for my $n (1 .. 4) {
    open my $fh, '<:raw', "$dir/fixtures/include$n.txt" or die "include$n.txt: $!";
    push @parts, do { local $/; <$fh> };
    close $fh;
}
binmode STDOUT;
print "Content-Type: text/html; charset=utf-8\r\n\r\n";
print "<html>\n<body>\n", join('<p><hr><p>', @parts), "</body>\n</html>\n";
