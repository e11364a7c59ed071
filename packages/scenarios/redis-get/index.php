<?php
require __DIR__ . '/../lib/php/connect.php';
$redis = bench_redis();
$value = $redis->get('test');
if (!bench_persistent()) {
    $redis->close();
}
header('Content-Type: text/plain; charset=utf-8');
echo $value;
