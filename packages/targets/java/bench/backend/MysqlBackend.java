package bench.backend;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.mariadb.jdbc.MariaDbPoolDataSource;

/** MariaDB through JDBC (MariaDB Connector/J): a connection per request, or the driver's own pool. */
public final class MysqlBackend {
    private MysqlBackend() {}

    private static final String URL = "jdbc:mariadb://" + BackendSettings.required("BENCH_MYSQL_HOST") + ":"
            + BackendSettings.required("BENCH_MYSQL_PORT") + "/" + BackendSettings.required("BENCH_MYSQL_DATABASE");
    private static final String USER = BackendSettings.required("BENCH_MYSQL_USER");
    private static final String PASSWORD = BackendSettings.required("BENCH_MYSQL_PASSWORD");
    private static final MariaDbPoolDataSource POOL = BackendSettings.POOLED ? pool() : null;

    /** A pool of BENCH_JAVA_POOL_SIZE connections (the driver's own), for the run's database. */
    static MariaDbPoolDataSource pool() {
        try {
            MariaDbPoolDataSource pool = new MariaDbPoolDataSource(URL);
            pool.setUser(USER);
            pool.setPassword(PASSWORD);
            pool.setMaxPoolSize(BackendSettings.poolSize());
            pool.setMinPoolSize(BackendSettings.poolSize());
            return pool;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A connection to close after use: a new one, or one borrowed from the pool (closing returns it). */
    public static Connection connect() throws SQLException {
        return POOL != null ? POOL.getConnection() : DriverManager.getConnection(URL, USER, PASSWORD);
    }

    /** The db and cache scenarios: the name of id 1, \n, the id of name 'test'. */
    public static String twoSelects() throws SQLException {
        try (Connection db = connect(); Statement statement = db.createStatement()) {
            String name;
            try (ResultSet row = statement.executeQuery("SELECT name FROM testtable WHERE id = 1")) {
                row.next();
                name = row.getString(1);
            }
            try (ResultSet row = statement.executeQuery("SELECT id FROM testtable WHERE name = 'test'")) {
                row.next();
                return name + "\n" + row.getInt(1);
            }
        }
    }
}
