#!/usr/bin/perl
use strict;
use warnings;
use Redis;

my $redis = Redis->new(server => "$ENV{BENCH_REDIS_HOST}:$ENV{BENCH_REDIS_PORT}", reconnect => 0);
my $value = $redis->get('test');
$redis->quit;
print "Content-Type: text/plain; charset=utf-8\r\n\r\n";
print $value;
