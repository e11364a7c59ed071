package bench.server;

/**
 * What bench tells a servlet container, as system properties: where to listen, and either the
 * scenario's servlet (with its fixtures folder) or the folder the container's DefaultServlet serves.
 */
public final class ServerSettings {
    public final String host = System.getProperty("bench.host", "127.0.0.1");
    public final int port = Integer.parseInt(required("bench.port"));
    public final int backlog = Integer.parseInt(required("bench.backlog"));
    public final int maxThreads = Integer.parseInt(required("bench.maxThreads"));
    /** Requests per kept-alive connection, where the container has such a limit (Tomcat). */
    public final int maxKeepAliveRequests = Integer.parseInt(required("bench.maxKeepAliveRequests"));
    /** The scenario's servlet class, mapped to every path; absent for a static scenario. */
    public final String servletClass = System.getProperty("bench.servlet");
    /** The folder the servlet reads its fixtures from (init parameter fixturesDir). */
    public final String fixturesDir = System.getProperty("bench.fixturesDir", "");
    /** For a static scenario: the folder served by the container's own DefaultServlet. */
    public final String staticRoot = System.getProperty("bench.staticRoot");
    /** A folder the container may write to (Tomcat's work dir). */
    public final String workDir = required("bench.workDir");
    /** What the connector speaks: http1, https, h2 (over TLS, by ALPN) or h2c (cleartext, prior knowledge). */
    public final String protocol = System.getProperty("bench.protocol", "http1");
    /** Over TLS: the run's certificate and key (PEM). */
    public final String certFile = System.getProperty("bench.certFile");
    public final String keyFile = System.getProperty("bench.keyFile");

    private static String required(String name) {
        String value = System.getProperty(name);
        if (value == null) throw new IllegalArgumentException("system property " + name + " is required");
        return value;
    }

    public boolean overTls() {
        return protocol.equals("https") || protocol.equals("h2");
    }

    public boolean http2() {
        return protocol.equals("h2") || protocol.equals("h2c");
    }

    public boolean isStatic() {
        return servletClass == null;
    }

    /** A new instance of the scenario's servlet class, as the container's Servlet type. */
    public <S> S newServlet(Class<S> type) throws ReflectiveOperationException {
        return type.cast(Class.forName(servletClass).getDeclaredConstructor().newInstance());
    }
}
