#!/usr/bin/perl
use strict;
use warnings;
use DBI;

# a connection per request, as a CGI-style script opens it
my $db = DBI->connect("DBI:MariaDB:database=$ENV{BENCH_MYSQL_DATABASE};host=$ENV{BENCH_MYSQL_HOST};port=$ENV{BENCH_MYSQL_PORT}",
    $ENV{BENCH_MYSQL_USER}, $ENV{BENCH_MYSQL_PASSWORD}, { RaiseError => 1, PrintError => 0 });
my $row = $db->selectrow_hashref('SELECT * FROM testtable');
$db->disconnect;
print "Content-Type: text/plain; charset=utf-8\r\n\r\n";
print $row->{name};
