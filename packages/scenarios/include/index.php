<?php
header('Content-Type: text/html; charset=utf-8');
echo "<html>\n<body>\n";
include __DIR__ . '/fixtures/include1.txt';
echo '<p><hr><p>';
include __DIR__ . '/fixtures/include2.txt';
echo '<p><hr><p>';
include __DIR__ . '/fixtures/include3.txt';
echo '<p><hr><p>';
include __DIR__ . '/fixtures/include4.txt';
echo "</body>\n</html>\n";
