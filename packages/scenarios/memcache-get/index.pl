#!/usr/bin/perl
use strict;
use warnings;
use Cache::Memcached::Fast;

my $memcached = Cache::Memcached::Fast->new({ servers => ["$ENV{BENCH_MEMCACHED_HOST}:$ENV{BENCH_MEMCACHED_PORT}"] });
my $value = $memcached->get('test');
$memcached->disconnect_all;
print "Content-Type: text/plain; charset=utf-8\r\n\r\n";
print $value;
