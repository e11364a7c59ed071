<% # TFB's json: the object serialised on every request
   my ($dir) = $ENV{SCRIPT_FILENAME} =~ m{^(.*)/}; require "$dir/../lib/perl/BenchTfb.pm" unless defined &BenchTfb::json_text;
   $Response->{ContentType} = 'application/json';
   $Response->Write(BenchTfb::json_text({ message => 'Hello, World!' })); %>