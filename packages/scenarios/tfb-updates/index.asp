<% # TFB's updates: N World rows read one query each, given new numbers, written back one UPDATE a row in a transaction
   my ($dir) = $ENV{SCRIPT_FILENAME} =~ m{^(.*)/}; require "$dir/../lib/perl/BenchTfb.pm" unless defined &BenchTfb::json_text;
   $Response->{ContentType} = 'application/json';
   $Response->Write(BenchTfb::json_text(BenchTfb::updated_rows())); %>