package bench.backend;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

/** PostgreSQL through JDBC (pgjdbc), pooled by HikariCP: the driver's own pool is deprecated, its docs name HikariCP instead. */
public final class PostgresBackend {
    private PostgresBackend() {}

    private static final String URL = "jdbc:postgresql://" + BackendSettings.required("BENCH_POSTGRES_HOST") + ":"
            + BackendSettings.required("BENCH_POSTGRES_PORT") + "/" + BackendSettings.required("BENCH_POSTGRES_DATABASE");
    private static final String USER = BackendSettings.required("BENCH_POSTGRES_USER");
    private static final String PASSWORD = BackendSettings.required("BENCH_POSTGRES_PASSWORD");

    /** A pool of BENCH_JAVA_POOL_SIZE connections, kept open (as MariaDB's), for the run's database. */
    static HikariDataSource pool() {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(URL);
        config.setUsername(USER);
        config.setPassword(PASSWORD);
        config.setMaximumPoolSize(BackendSettings.poolSize());
        config.setMinimumIdle(BackendSettings.poolSize());
        return new HikariDataSource(config);
    }
}
