<?php
header('Content-Type: text/html; charset=utf-8');
$source = '<a href="/search?q=caf&lang=en">Tom\'s "best" <b>deals</b> & more</a>';
$lines = [];
$bytes = 0;
for ($i = 1; $i <= 100; $i++) {
    $line = htmlspecialchars($source . ' ' . $i, ENT_QUOTES);
    $bytes += strlen($line);
    $lines[] = $line;
}
echo "<html>\n<head><title>100 calls of htmlspecialchars</title></head>\n<body>\n";
echo '<p>', $lines[0], "</p>\n<p>", $lines[99], "</p>\n<p>", count($lines), ' strings escaped, ', $bytes, " bytes</p>\n";
echo "</body>\n</html>\n";
