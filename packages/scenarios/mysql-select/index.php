<?php
require __DIR__ . '/../lib/php/connect.php';
$db = bench_mysql();
$row = $db->query('SELECT * FROM testtable')->fetch_assoc();
$db->close();
header('Content-Type: text/plain; charset=utf-8');
echo $row['name'];
