#!/usr/bin/perl
# HTTP::Tiny with IO::Socket::SSL, trusting only the CA file given.
use strict;
use warnings;
use HTTP::Tiny;

my ($url, $n, $ca_file) = @ARGV;
my $http = HTTP::Tiny->new(verify_SSL => 1, SSL_options => { SSL_ca_file => $ca_file });
for (1 .. $n) {
    my $response = $http->get($url);
    die "fetch failed: $response->{status} $response->{content}\n" unless $response->{success};
    print $response->{content}, "\n";
}
