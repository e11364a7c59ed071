#!/usr/bin/perl
use strict;
use warnings;

# htmlspecialchars with ENT_QUOTES, exactly: HTML::Entities would write ' as &#39;, PHP writes &#039;
my %entity = ('&' => '&amp;', '<' => '&lt;', '>' => '&gt;', '"' => '&quot;', "'" => '&#039;');
my $source = q{<a href="/search?q=caf&lang=en">Tom's "best" <b>deals</b> & more</a>};
my @lines;
for my $i (1 .. 100) {
    (my $line = "$source $i") =~ s/([&<>"'])/$entity{$1}/g;
    push @lines, $line;
}
print "Content-Type: text/html; charset=utf-8\r\n\r\n";
print join("\n", @lines);
