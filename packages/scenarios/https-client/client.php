<?php
// file_get_contents over HTTPS, trusting only the CA file given; article 002's PHP client.
[, $url, $n, $caFile] = $argv;
$context = stream_context_create(['ssl' => ['cafile' => $caFile, 'verify_peer' => true, 'verify_peer_name' => true]]);
for ($i = 0; $i < (int) $n; $i++) {
    $body = file_get_contents($url, false, $context);
    if ($body === false) {
        fwrite(STDERR, "fetch {$i} failed\n");
        exit(1);
    }
    echo $body, "\n";
}
