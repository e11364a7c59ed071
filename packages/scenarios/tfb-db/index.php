<?php
// TFB's single query: one World row by a random id
require __DIR__ . '/../lib/php/tfb.php';
tfb_json(tfb_world_row(tfb_pdo()->prepare('SELECT id, randomNumber FROM World WHERE id = ?')));
