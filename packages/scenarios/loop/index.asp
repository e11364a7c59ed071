<% $Response->{ContentType} = 'text/plain; charset=utf-8'; for my $n (1 .. 4000) { %>Hello, World <%= $n %>
<% } %>