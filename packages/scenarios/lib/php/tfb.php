<?php
// What the PHP scripts of TechEmpower's test types share: PDO to World and Fortune, the query parameter's rule,
// JSON answers, and the cache of World for cached-queries (APCu in a process that lives on, memcached under CGI).

require_once __DIR__ . '/connect.php';

const TFB_WORLD_ROWS = 10000;

// php -S names no server; TFB asks every answer to (Apache and nginx send their own)
if (PHP_SAPI === 'cli-server') {
    header('Server: php-cli-server');
}

/** The run's database: PostgreSQL when bench gives the stack one (--db postgres), else MariaDB. */
function tfb_pdo(): PDO
{
    if (getenv('BENCH_POSTGRES_HOST') !== false) {
        $dsn = 'pgsql:host=' . getenv('BENCH_POSTGRES_HOST') . ';port=' . getenv('BENCH_POSTGRES_PORT')
            . ';dbname=' . getenv('BENCH_POSTGRES_DATABASE');
        $user = getenv('BENCH_POSTGRES_USER');
        $password = getenv('BENCH_POSTGRES_PASSWORD');
    } else {
        $dsn = 'mysql:host=' . getenv('BENCH_MYSQL_HOST') . ';port=' . getenv('BENCH_MYSQL_PORT')
            . ';dbname=' . getenv('BENCH_MYSQL_DATABASE') . ';charset=utf8mb4';
        $user = getenv('BENCH_MYSQL_USER');
        $password = getenv('BENCH_MYSQL_PASSWORD');
    }
    return new PDO($dsn, $user, $password, [
        PDO::ATTR_PERSISTENT => bench_persistent(),
        PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION,
    ]);
}

/** The rows a request asks for: the parameter as a whole number, clamped to 1..500; anything else 1. */
function tfb_count(string $name): int
{
    $value = $_GET[$name] ?? '';
    if (!is_string($value) || !preg_match('/^\s*[+-]?\d+\s*$/', $value)) {
        return 1;
    }
    return min(500, max(1, (int) $value));
}

function tfb_json($value): void
{
    header('Content-Type: application/json');
    echo json_encode($value);
}

/** One World row by a random id, with whole numbers (columns by position: PostgreSQL names them in lower case). */
function tfb_world_row(PDOStatement $select): array
{
    $select->execute([mt_rand(1, TFB_WORLD_ROWS)]);
    [$id, $number] = $select->fetch(PDO::FETCH_NUM);
    return ['id' => (int) $id, 'randomNumber' => (int) $number];
}

/** $n World rows, one query each. */
function tfb_world_rows(PDO $pdo, int $n): array
{
    $select = $pdo->prepare('SELECT id, randomNumber FROM World WHERE id = ?');
    $rows = [];
    for ($i = 0; $i < $n; $i++) {
        $rows[] = tfb_world_row($select);
    }
    return $rows;
}

/**
 * Writes the rows' numbers, one UPDATE for each row read, in one transaction, ids in order (so concurrent ones cannot
 * deadlock; an id drawn twice is written twice): TFB's verifier counts one UPDATE a row read, on MySQL with a margin no
 * batched UPDATE passes, on PostgreSQL with none.
 */
function tfb_write_world_rows(PDO $pdo, array $rows): void
{
    usort($rows, fn ($a, $b) => $a['id'] <=> $b['id']);
    $update = $pdo->prepare('UPDATE World SET randomNumber = ? WHERE id = ?');
    $pdo->beginTransaction();
    try {
        foreach ($rows as $row) {
            $update->execute([$row['randomNumber'], $row['id']]);
        }
        $pdo->commit();
    } catch (Throwable $error) {
        $pdo->rollBack();
        throw $error;
    }
}

/** $n random rows of World from the cache, filled from World at first use. */
function tfb_cached_rows(int $n): array
{
    $keys = [];
    for ($i = 0; $i < $n; $i++) {
        $keys[] = 'tfb:php:world:' . mt_rand(1, TFB_WORLD_ROWS);
    }
    $cache = getenv('BENCH_CACHE') === 'memcached' ? tfb_memcached() : null;
    $found = $cache ? $cache->getMulti(array_unique($keys)) : apcu_fetch(array_unique($keys));
    if (!$found || count($found) < count(array_unique($keys))) {
        $all = tfb_world_table();
        $cache ? $cache->setMulti($all) : apcu_store($all);
        $found = $all;
    }
    return array_map(fn ($key) => $found[$key], $keys);
}

function tfb_memcached(): Memcached
{
    return bench_memcached();
}

/** Every row of World, keyed as the cache keeps them. */
function tfb_world_table(): array
{
    $all = [];
    foreach (tfb_pdo()->query('SELECT id, randomNumber FROM World', PDO::FETCH_NUM) as [$id, $number]) {
        $all['tfb:php:world:' . $id] = ['id' => (int) $id, 'randomNumber' => (int) $number];
    }
    return $all;
}
