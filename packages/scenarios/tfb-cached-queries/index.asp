<% # TFB's cached queries: N random World rows from a cache (a variable where the process lives on, memcached under CGI)
   my ($dir) = $ENV{SCRIPT_FILENAME} =~ m{^(.*)/}; require "$dir/../lib/perl/BenchTfb.pm" unless defined &BenchTfb::json_text;
   $Response->{ContentType} = 'application/json';
   $Response->Write(BenchTfb::json_text(BenchTfb::cached_rows(BenchTfb::count('count')))); %>