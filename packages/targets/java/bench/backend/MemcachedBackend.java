package bench.backend;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.logging.Level;
import java.util.logging.Logger;
import net.spy.memcached.MemcachedClient;

/**
 * memcached through spymemcached: a client per request (its connection opened and shut down around
 * the get), or one shared client, which spymemcached multiplexes over one connection for every thread.
 */
public final class MemcachedBackend {
    private MemcachedBackend() {}

    // spymemcached logs every connection at INFO; through java.util.logging only warnings reach the log
    // (held in a field: java.util.logging keeps loggers weakly, and a collected one forgets its level)
    private static final Logger SPY_LOG = quietSpyLog();

    private static Logger quietSpyLog() {
        System.setProperty("net.spy.log.LoggerImpl", "net.spy.memcached.compat.log.SunLogger");
        Logger log = Logger.getLogger("net.spy.memcached");
        log.setLevel(Level.WARNING);
        return log;
    }

    private static final InetSocketAddress ADDRESS = new InetSocketAddress(
            BackendSettings.required("BENCH_MEMCACHED_HOST"), Integer.parseInt(BackendSettings.required("BENCH_MEMCACHED_PORT")));
    private static final MemcachedClient SHARED = BackendSettings.POOLED ? client() : null;

    private static MemcachedClient client() {
        try {
            return new MemcachedClient(ADDRESS);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static Object get(String key) {
        if (SHARED != null) return SHARED.get(key);
        MemcachedClient client = client();
        try {
            return client.get(key);
        } finally {
            client.shutdown();
        }
    }
}
