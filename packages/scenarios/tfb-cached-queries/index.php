<?php
// TFB's cached queries: N random World rows from a cache (APCu where the process lives on, memcached under CGI)
require __DIR__ . '/../lib/php/tfb.php';
tfb_json(tfb_cached_rows(tfb_count('count')));
