<?php
header('Content-Type: text/plain; charset=utf-8');
for ($n = 1; $n <= 4000; $n++) {
    echo "Hello, World $n\n";
}
