<?php
// TFB's fortunes: every row, one added, sorted, escaped into the table
require __DIR__ . '/../lib/php/tfb.php';
$fortunes = tfb_pdo()->query('SELECT id, message FROM Fortune')->fetchAll(PDO::FETCH_KEY_PAIR);
$fortunes[0] = 'Additional fortune added at request time.';
asort($fortunes, SORT_STRING);
header('Content-Type: text/html; charset=utf-8');
echo '<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>';
foreach ($fortunes as $id => $message) {
    echo '<tr><td>', $id, '</td><td>', htmlspecialchars($message, ENT_QUOTES, 'UTF-8'), '</td></tr>';
}
echo '</table></body></html>';
