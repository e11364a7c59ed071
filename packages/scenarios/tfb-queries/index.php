<?php
// TFB's multiple queries: N World rows, one query each
require __DIR__ . '/../lib/php/tfb.php';
tfb_json(tfb_world_rows(tfb_pdo(), tfb_count('queries')));
