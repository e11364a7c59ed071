<?php
// TFB's json: the object serialised on every request
require __DIR__ . '/../lib/php/tfb.php';
tfb_json(['message' => 'Hello, World!']);
