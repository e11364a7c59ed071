<?php
header('Content-Type: text/html; charset=utf-8');
echo "<html>\n<head><title>9x9</title></head>\n<body>\n<table border=1>\n";
for ($x = 1; $x <= 9; $x++) {
    echo '<tr>';
    for ($y = 1; $y <= 9; $y++) {
        echo "<td nowrap>$x x $y = " . ($x * $y) . '</td>';
    }
    echo "</tr>\n";
}
echo "</table>\n</body>\n</html>\n";
