<?php
// TFB's plaintext
require __DIR__ . '/../lib/php/tfb.php';
header('Content-Type: text/plain');
echo 'Hello, World!';
