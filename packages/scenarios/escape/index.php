<?php
header('Content-Type: text/html; charset=utf-8');
$source = '<a href="/search?q=caf&lang=en">Tom\'s "best" <b>deals</b> & more</a>';
$lines = [];
for ($i = 1; $i <= 100; $i++) {
    $lines[] = htmlspecialchars($source . ' ' . $i, ENT_QUOTES);
}
echo implode("\n", $lines);
