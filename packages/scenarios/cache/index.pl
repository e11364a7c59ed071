#!/usr/bin/perl
use strict;
use warnings;
use DBI;
use POSIX qw(strftime);

my $db = DBI->connect("DBI:MariaDB:database=$ENV{BENCH_MYSQL_DATABASE};host=$ENV{BENCH_MYSQL_HOST};port=$ENV{BENCH_MYSQL_PORT}",
    $ENV{BENCH_MYSQL_USER}, $ENV{BENCH_MYSQL_PASSWORD}, { RaiseError => 1, PrintError => 0 });
my ($name) = $db->selectrow_array('SELECT name FROM testtable WHERE id = 1');
my ($id) = $db->selectrow_array(q{SELECT id FROM testtable WHERE name = 'test'});
$db->disconnect;
my $expires = strftime('%a, %d %b %Y %H:%M:%S GMT', gmtime(time + 15));
print "Content-Type: text/plain; charset=utf-8\r\nExpires: $expires\r\nCache-Control: max-age=15\r\n\r\n";
print "$name\n$id";
