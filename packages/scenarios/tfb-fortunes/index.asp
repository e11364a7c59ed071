<% # TFB's fortunes: every row, one added, sorted, escaped into the table
   my ($dir) = $ENV{SCRIPT_FILENAME} =~ m{^(.*)/}; require "$dir/../lib/perl/BenchTfb.pm" unless defined &BenchTfb::json_text;
   $Response->{ContentType} = 'text/html; charset=utf-8';
   $Response->Write(BenchTfb::fortunes_html()); %>