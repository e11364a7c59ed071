<?php
// Backend connections for the PHP scenarios: one per request, as PHP does by default, or
// persistent when bench runs with BENCH_PHP_PERSISTENT=1 (recorded in the result's settings).

function bench_persistent(): bool
{
    return getenv('BENCH_PHP_PERSISTENT') === '1';
}

function bench_mysql(): mysqli
{
    mysqli_report(MYSQLI_REPORT_ERROR | MYSQLI_REPORT_STRICT);
    $host = (bench_persistent() ? 'p:' : '') . getenv('BENCH_MYSQL_HOST');
    return new mysqli($host, getenv('BENCH_MYSQL_USER'), getenv('BENCH_MYSQL_PASSWORD'), getenv('BENCH_MYSQL_DATABASE'), (int) getenv('BENCH_MYSQL_PORT'));
}

function bench_redis(): Redis
{
    $redis = new Redis();
    if (bench_persistent()) {
        $redis->pconnect(getenv('BENCH_REDIS_HOST'), (int) getenv('BENCH_REDIS_PORT'));
    } else {
        $redis->connect(getenv('BENCH_REDIS_HOST'), (int) getenv('BENCH_REDIS_PORT'));
    }
    return $redis;
}

function bench_memcached(): Memcached
{
    $memcached = bench_persistent() ? new Memcached('bench') : new Memcached();
    if (!$memcached->getServerList()) {
        $memcached->addServer(getenv('BENCH_MEMCACHED_HOST'), (int) getenv('BENCH_MEMCACHED_PORT'));
    }
    return $memcached;
}
