<?php
require __DIR__ . '/../lib/php/connect.php';
$db = bench_mysql();
$name = $db->query('SELECT name FROM testtable WHERE id = 1')->fetch_assoc()['name'];
$id = $db->query("SELECT id FROM testtable WHERE name = 'test'")->fetch_assoc()['id'];
$db->close();
header('Content-Type: text/plain; charset=utf-8');
echo $name . "\n" . $id;
