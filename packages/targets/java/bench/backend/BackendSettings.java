package bench.backend;

/**
 * Where the run's backing services are, read from the BENCH_* variables bench sets for every stack
 * (as the PHP and Perl scripts read them), and whether to pool: BENCH_JAVA_POOL=1 keeps a pool of
 * BENCH_JAVA_POOL_SIZE connections per JVM; otherwise every request opens and closes its own, as PHP does.
 */
final class BackendSettings {
    private BackendSettings() {}

    static final boolean POOLED = "1".equals(System.getenv("BENCH_JAVA_POOL"));

    static int poolSize() {
        String size = System.getenv("BENCH_JAVA_POOL_SIZE");
        return size == null ? 10 : Integer.parseInt(size);
    }

    static String required(String name) {
        String value = System.getenv(name);
        if (value == null) throw new IllegalStateException(name + " is not set: bench sets it when the scenario needs the service");
        return value;
    }
}
