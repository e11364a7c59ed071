#!/usr/bin/perl
use strict;
use warnings;

print "Content-Type: text/html; charset=utf-8\r\n\r\n";
print "<html>\n<head><title>9x9</title></head>\n<body>\n<table border=1>\n";
for my $x (1 .. 9) {
    print '<tr>';
    for my $y (1 .. 9) {
        print "<td nowrap>$x x $y = ", $x * $y, '</td>';
    }
    print "</tr>\n";
}
print "</table>\n</body>\n</html>\n";
