<% use DBI; use POSIX qw(strftime);
   $Response->{ContentType} = 'text/plain; charset=utf-8';
   $Response->AddHeader('Expires', strftime('%a, %d %b %Y %H:%M:%S GMT', gmtime(time + 15)));
   $Response->AddHeader('Cache-Control', 'max-age=15');
   my $db = DBI->connect("DBI:MariaDB:database=$ENV{BENCH_MYSQL_DATABASE};host=$ENV{BENCH_MYSQL_HOST};port=$ENV{BENCH_MYSQL_PORT}",
       $ENV{BENCH_MYSQL_USER}, $ENV{BENCH_MYSQL_PASSWORD}, { RaiseError => 1, PrintError => 0 });
   my ($name) = $db->selectrow_array('SELECT name FROM testtable WHERE id = 1');
   my ($id) = $db->selectrow_array(q{SELECT id FROM testtable WHERE name = 'test'});
   $db->disconnect;
   $Response->Write("$name\n$id"); %>