#!/usr/bin/perl
# TFB's plaintext
use strict;
use warnings;

print "Content-Type: text/plain\r\n\r\n", 'Hello, World!';
