#!/usr/bin/perl
use strict;
use warnings;

# htmlspecialchars with ENT_QUOTES, exactly, as in escape/index.pl
my %entity = ('&' => '&amp;', '<' => '&lt;', '>' => '&gt;', '"' => '&quot;', "'" => '&#039;');
my $source = q{<a href="/search?q=caf&lang=en">Tom's "best" <b>deals</b> & more</a>};
my @lines;
my $bytes = 0;
for my $i (1 .. 100) {
    (my $line = "$source $i") =~ s/([&<>"'])/$entity{$1}/g;
    $bytes += length $line;
    push @lines, $line;
}
print "Content-Type: text/html; charset=utf-8\r\n\r\n";
print "<html>\n<head><title>100 calls of htmlspecialchars</title></head>\n<body>\n";
print "<p>$lines[0]</p>\n<p>$lines[-1]</p>\n<p>", scalar(@lines), " strings escaped, $bytes bytes</p>\n";
print "</body>\n</html>\n";
