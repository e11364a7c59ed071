<% # TFB's single query: one World row by a random id
   my ($dir) = $ENV{SCRIPT_FILENAME} =~ m{^(.*)/}; require "$dir/../lib/perl/BenchTfb.pm" unless defined &BenchTfb::json_text;
   $Response->{ContentType} = 'application/json';
   $Response->Write(BenchTfb::json_text(BenchTfb::db_row())); %>