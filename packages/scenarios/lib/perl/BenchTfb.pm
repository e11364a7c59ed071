package BenchTfb;
# What the Perl scripts of TechEmpower's test types share: DBI to World and Fortune, the query parameter's rule,
# JSON answers, and the cache of World for cached-queries (a variable in a process that lives on, memcached under CGI).
# A script or page loads it by path, once per process: require "$dir/../lib/perl/BenchTfb.pm" unless defined &BenchTfb::json_text.
use strict;
use warnings;
use DBI;
use Encode ();
use JSON::XS ();

use constant WORLD_ROWS => 10000;

my $json = JSON::XS->new->canonical;
our %cache;

# the run's database: PostgreSQL when bench gives the stack one (--db postgres), else MariaDB
sub connect_db {
    if (defined $ENV{BENCH_POSTGRES_HOST}) {
        return DBI->connect("DBI:Pg:dbname=$ENV{BENCH_POSTGRES_DATABASE};host=$ENV{BENCH_POSTGRES_HOST};port=$ENV{BENCH_POSTGRES_PORT}",
            $ENV{BENCH_POSTGRES_USER}, $ENV{BENCH_POSTGRES_PASSWORD}, { RaiseError => 1, PrintError => 0 });
    }
    return DBI->connect("DBI:MariaDB:database=$ENV{BENCH_MYSQL_DATABASE};host=$ENV{BENCH_MYSQL_HOST};port=$ENV{BENCH_MYSQL_PORT}",
        $ENV{BENCH_MYSQL_USER}, $ENV{BENCH_MYSQL_PASSWORD}, { RaiseError => 1, PrintError => 0 });
}

# the rows a request asks for: the parameter as a whole number, clamped to 1..500; anything else 1
sub count {
    my ($name) = @_;
    my ($value) = ($ENV{QUERY_STRING} // '') =~ /(?:^|&)\Q$name\E=([^&]*)/;
    $value //= '';
    $value =~ s/%([0-9A-Fa-f]{2})/chr(hex($1))/ge;
    return 1 unless $value =~ /^\s*[+-]?\d+\s*$/;
    my $n = int($value);
    return $n < 1 ? 1 : $n > 500 ? 500 : $n;
}

sub random_id { return 1 + int(rand(WORLD_ROWS)) }

# a value as JSON, serialised on every request; print_json with the CGI-style header before it
sub json_text { return $json->encode($_[0]) }

sub print_json {
    my ($value) = @_;
    print "Content-Type: application/json\r\n\r\n", json_text($value);
}

sub world_row {
    my ($select) = @_;
    $select->execute(random_id());
    my ($id, $number) = $select->fetchrow_array;
    return { id => $id + 0, randomNumber => $number + 0 };
}

sub world_rows {
    my ($db, $n) = @_;
    my $select = $db->prepare('SELECT id, randomNumber FROM World WHERE id = ?');
    return [map { world_row($select) } 1 .. $n];
}

# each type's rows on a connection of its own, opened and closed for the request: db's row, queries', updates' written
sub db_row {
    my $db = connect_db();
    my $row = world_row($db->prepare('SELECT id, randomNumber FROM World WHERE id = ?'));
    $db->disconnect;
    return $row;
}

sub query_rows {
    my $db = connect_db();
    my $rows = world_rows($db, count('queries'));
    $db->disconnect;
    return $rows;
}

sub updated_rows {
    my $db = connect_db();
    my $rows = world_rows($db, count('queries'));
    $_->{randomNumber} = random_id() for @$rows;
    write_world_rows($db, $rows);
    $db->disconnect;
    return $rows;
}

# the rows' numbers, one UPDATE for each row read, in one transaction, ids in order (so concurrent ones cannot deadlock;
# an id drawn twice is written twice): TFB's verifier counts one UPDATE a row read, on MySQL with a margin no batched
# UPDATE passes, on PostgreSQL with none
sub write_world_rows {
    my ($db, $rows) = @_;
    my $update = $db->prepare('UPDATE World SET randomNumber = ? WHERE id = ?');
    $db->begin_work;
    eval {
        $update->execute($_->{randomNumber}, $_->{id}) for sort { $a->{id} <=> $b->{id} } @$rows;
        $db->commit;
        1;
    } or do {
        my $error = $@;
        eval { $db->rollback };
        die $error;
    };
}

sub escape_html {
    my ($text) = @_;
    $text =~ s/&/&amp;/g;
    $text =~ s/</&lt;/g;
    $text =~ s/>/&gt;/g;
    $text =~ s/"/&quot;/g;
    $text =~ s/'/&#39;/g;
    return $text;
}

# the fortunes page, as UTF-8 bytes
sub fortunes_html {
    my $db = connect_db();
    my $rows = $db->selectall_arrayref('SELECT id, message FROM Fortune');
    $db->disconnect;
    push @$rows, [0, 'Additional fortune added at request time.'];
    my $html = '<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>'
      . join('', map { "<tr><td>$_->[0]</td><td>" . escape_html($_->[1]) . '</td></tr>' } sort { $a->[1] cmp $b->[1] } @$rows)
      . '</table></body></html>';
    return Encode::encode_utf8($html);
}

# $n random rows of World from the cache, filled from World at first use
sub cached_rows {
    my ($n) = @_;
    my @keys = map { 'tfb:perl:world:' . random_id() } 1 .. $n;
    if (($ENV{BENCH_CACHE} // '') eq 'memcached') {
        require Cache::Memcached::Fast;
        my $memcached = Cache::Memcached::Fast->new({ servers => ["$ENV{BENCH_MEMCACHED_HOST}:$ENV{BENCH_MEMCACHED_PORT}"] });
        my $found = $memcached->get_multi(@keys);
        if (keys %$found < keys %{ { map { $_ => 1 } @keys } }) {
            my $all = world_table();
            $memcached->set_multi(map { [$_, $json->encode($all->{$_})] } keys %$all);
            $found = { map { $_ => $json->encode($all->{$_}) } @keys };
        }
        $memcached->disconnect_all;
        return [map { $json->decode($found->{$_}) } @keys];
    }
    %cache = %{ world_table() } unless %cache;
    return [map { $cache{$_} } @keys];
}

sub world_table {
    my $db = connect_db();
    my $rows = $db->selectall_arrayref('SELECT id, randomNumber FROM World');
    $db->disconnect;
    return { map { ('tfb:perl:world:' . $_->[0]) => { id => $_->[0] + 0, randomNumber => $_->[1] + 0 } } @$rows };
}

1;
