<% # TFB's multiple queries: N World rows, one query each
   my ($dir) = $ENV{SCRIPT_FILENAME} =~ m{^(.*)/}; require "$dir/../lib/perl/BenchTfb.pm" unless defined &BenchTfb::json_text;
   $Response->{ContentType} = 'application/json';
   $Response->Write(BenchTfb::json_text(BenchTfb::query_rows())); %>