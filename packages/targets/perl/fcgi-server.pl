#!/usr/bin/perl
# bench's Perl FastCGI server: FCGI::ProcManager forks a pool of workers that answer on a unix
# socket nginx talks to. Each worker compiles the CGI-style scripts once into subs, as
# ModPerl::Registry does, and runs the one nginx names (SCRIPT_FILENAME) per request with STDOUT
# and %ENV bound to the request; with one script, that one answers every request.
use strict;
use warnings;
use FCGI;
use FCGI::ProcManager;

my ($socket_path, $workers, @scripts) = @ARGV;
die "usage: fcgi-server.pl SOCKET WORKERS SCRIPT...\n" unless @scripts;

# each script in a package of its own, so the subs and globals of one never meet another's
my %handlers;
my $serial = 0;
for my $script (@scripts) {
    my $source = do { local (@ARGV, $/) = ($script); <> };
    $serial++;
    $handlers{$script} = eval "package Bench::Script$serial; sub {\n$source\n}" or die "cannot compile $script: $@";
}
my ($only) = @scripts == 1 ? values %handlers : ();

my $socket = FCGI::OpenSocket($socket_path, 4096);
my $manager = Bench::ProcManager->new({ n_processes => $workers, die_timeout => 2 });
$manager->pm_manage();

my %env;
my $request = FCGI::Request(\*STDIN, \*STDOUT, \*STDERR, \%env, $socket);
while ($request->Accept() >= 0) {
    $manager->pm_pre_dispatch();
    local %ENV = (%ENV, %env);
    my $handler = $only // $handlers{ $env{SCRIPT_FILENAME} // '' };
    if ($handler) {
        $handler->();
    } else {
        print "Status: 404 Not Found\r\nContent-Type: text/plain\r\n\r\nno script " . ($env{SCRIPT_FILENAME} // '') . "\n";
    }
    $manager->pm_post_dispatch();
}
FCGI::CloseSocket($socket);

package Bench::ProcManager;
use parent -norequire, 'FCGI::ProcManager';

# bench stops the whole process group, so the workers get TERM with the manager and may be reaped
# before its pm_die waits for them; FCGI::ProcManager 0.28 then spins on wait() failing with ECHILD
# until die_timeout. Forget the pids no wait() can return any more.
sub pm_wait {
    my ($this) = @_;
    my $pid = $this->SUPER::pm_wait();
    %{ $this->{PIDS} } = () if !defined $pid && $!{ECHILD};
    return $pid;
}

