package bench.backend;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import javax.sql.DataSource;

/**
 * What the servlets of TechEmpower's test types share: World and Fortune through a pool (MariaDB's driver's own, or
 * HikariCP for PostgreSQL), the query parameter's rule, JSON by hand, and the cache of World for cached-queries. Always
 * pooled, as TFB's Java entries: a new JDBC connection runs a SELECT of the driver's own, which TFB's query counts would
 * take for the stack's.
 */
public final class TfbWorld {
    private TfbWorld() {}

    public static final int ROWS = 10000;

    /** A World row. */
    public static final class Row {
        public final int id;
        public int randomNumber;

        Row(int id, int randomNumber) {
            this.id = id;
            this.randomNumber = randomNumber;
        }
    }

    // PostgreSQL when bench gives the stack one (--db postgres), else MariaDB: found by name, as javac sees only the run's driver
    private static final DataSource POOL =
            pool(System.getenv("BENCH_POSTGRES_HOST") != null ? "bench.backend.PostgresBackend" : "bench.backend.MysqlBackend");
    private static volatile Row[] cache;

    private static DataSource pool(String backend) {
        try {
            return (DataSource) Class.forName(backend).getDeclaredMethod("pool").invoke(null);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException(e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    public static Connection connect() throws SQLException {
        return POOL.getConnection();
    }

    /** The rows a request asks for: the parameter as a whole number, clamped to 1..500; anything else 1. */
    public static int count(String value) {
        if (value == null || !value.trim().matches("[+-]?\\d+")) return 1;
        try {
            return Math.min(500, Math.max(1, Integer.parseInt(value.trim().replace("+", ""))));
        } catch (NumberFormatException tooLong) {
            return value.trim().startsWith("-") ? 1 : 500;
        }
    }

    public static int randomId() {
        return 1 + ThreadLocalRandom.current().nextInt(ROWS);
    }

    /** n rows by random ids, one query each. */
    public static List<Row> read(Connection db, int n) throws SQLException {
        List<Row> rows = new ArrayList<>(n);
        try (PreparedStatement select = db.prepareStatement("SELECT id, randomNumber FROM World WHERE id = ?")) {
            for (int i = 0; i < n; i++) {
                select.setInt(1, randomId());
                try (ResultSet row = select.executeQuery()) {
                    row.next();
                    rows.add(new Row(row.getInt(1), row.getInt(2)));
                }
            }
        }
        return rows;
    }

    /**
     * The rows' numbers, one UPDATE for each row read, in one transaction, ids in order (so concurrent ones cannot
     * deadlock; an id drawn twice is written twice): TFB's verifier counts one UPDATE a row read, on MySQL with a margin no
     * batched UPDATE passes, on PostgreSQL with none.
     */
    public static void write(Connection db, List<Row> rows) throws SQLException {
        // List.sort is stable: an id drawn twice keeps its later number last
        List<Row> ordered = new ArrayList<>(rows);
        ordered.sort(Comparator.comparingInt(row -> row.id));
        boolean autoCommit = db.getAutoCommit();
        db.setAutoCommit(false);
        try (PreparedStatement update = db.prepareStatement("UPDATE World SET randomNumber = ? WHERE id = ?")) {
            for (Row row : ordered) {
                update.setInt(1, row.randomNumber);
                update.setInt(2, row.id);
                update.executeUpdate();
            }
            db.commit();
        } catch (SQLException error) {
            db.rollback();
            throw error;
        } finally {
            db.setAutoCommit(autoCommit);
        }
    }

    /** n random rows from the cache of World, filled at first use. */
    public static List<Row> cached(int n) throws SQLException {
        Row[] rows = cache;
        if (rows == null) {
            synchronized (TfbWorld.class) {
                if (cache == null) cache = table();
                rows = cache;
            }
        }
        List<Row> found = new ArrayList<>(n);
        for (int i = 0; i < n; i++) found.add(rows[randomId()]);
        return found;
    }

    private static Row[] table() throws SQLException {
        Row[] rows = new Row[ROWS + 1];
        try (Connection db = connect(); Statement statement = db.createStatement(); ResultSet row = statement.executeQuery("SELECT id, randomNumber FROM World")) {
            while (row.next()) rows[row.getInt(1)] = new Row(row.getInt(1), row.getInt(2));
        }
        return rows;
    }

    /** A JSON answer as TFB wants it: Server named, application/json with no charset (bytes: a writer would name one), its length. */
    public static void sendJson(HttpServletResponse response, String server, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        response.setHeader("Server", server);
        response.setContentType("application/json");
        response.setContentLength(bytes.length);
        response.getOutputStream().write(bytes);
    }

    public static String json(Row row) {
        return "{\"id\":" + row.id + ",\"randomNumber\":" + row.randomNumber + "}";
    }

    public static String json(List<Row> rows) {
        StringBuilder out = new StringBuilder(rows.size() * 32).append('[');
        for (Row row : rows) out.append(out.length() > 1 ? "," : "").append(json(row));
        return out.append(']').toString();
    }
}
