package bench.backend;

import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.JedisPoolConfig;

/** Redis through Jedis: a connection per request, or a JedisPool. */
public final class RedisBackend {
    private RedisBackend() {}

    private static final String HOST = BackendSettings.required("BENCH_REDIS_HOST");
    private static final int PORT = Integer.parseInt(BackendSettings.required("BENCH_REDIS_PORT"));
    private static final JedisPool POOL = BackendSettings.POOLED ? pool() : null;

    private static JedisPool pool() {
        JedisPoolConfig config = new JedisPoolConfig();
        config.setMaxTotal(BackendSettings.poolSize());
        config.setMaxIdle(BackendSettings.poolSize());
        return new JedisPool(config, HOST, PORT);
    }

    /** A client to close after use: a new connection, or one borrowed from the pool (closing returns it). */
    public static Jedis connect() {
        return POOL != null ? POOL.getResource() : new Jedis(HOST, PORT);
    }
}
