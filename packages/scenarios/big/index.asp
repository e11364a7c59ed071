<% $Response->{ContentType} = 'text/plain; charset=utf-8';
   open my $in, '<', $Server->MapPath('fixtures/block.txt') or die $!; local $/; my $block = <$in>; close $in;
   $Response->Write($block); %>