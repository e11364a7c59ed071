<?php
// TFB's updates: N World rows read one query each, given new numbers, written back one UPDATE a row in a transaction
require __DIR__ . '/../lib/php/tfb.php';
$pdo = tfb_pdo();
$rows = tfb_world_rows($pdo, tfb_count('queries'));
foreach ($rows as &$row) {
    $row['randomNumber'] = mt_rand(1, TFB_WORLD_ROWS);
}
unset($row);
tfb_write_world_rows($pdo, $rows);
tfb_json($rows);
