<?php
require __DIR__ . '/../lib/php/connect.php';
$memcached = bench_memcached();
$value = $memcached->get('test');
if (!bench_persistent()) {
    $memcached->quit();
}
header('Content-Type: text/plain; charset=utf-8');
echo $value;
