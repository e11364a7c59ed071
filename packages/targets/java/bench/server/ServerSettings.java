package bench.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/**
 * What bench tells a servlet container, as system properties: where to listen, and what it serves (the file
 * bench.served names: each scenario's servlet at its mapping, or a static folder for the container's own
 * DefaultServlet at its context path).
 */
public final class ServerSettings {
    public final String host = System.getProperty("bench.host", "127.0.0.1");
    public final int port = Integer.parseInt(required("bench.port"));
    public final int backlog = Integer.parseInt(required("bench.backlog"));
    public final int maxThreads = Integer.parseInt(required("bench.maxThreads"));
    /** Requests per kept-alive connection, where the container has such a limit (Tomcat). */
    public final int maxKeepAliveRequests = Integer.parseInt(required("bench.maxKeepAliveRequests"));
    /** A folder the container may write to (Tomcat's work dir). */
    public final String workDir = required("bench.workDir");
    /** What the connector speaks: http1, https, h2 (over TLS, by ALPN) or h2c (cleartext, prior knowledge). */
    public final String protocol = System.getProperty("bench.protocol", "http1");
    /** Over TLS: the run's certificate and key (PEM). */
    public final String certFile = System.getProperty("bench.certFile");
    public final String keyFile = System.getProperty("bench.keyFile");
    /** The scenarios' servlets, each at its mapping (/* for one scenario alone, /s/name/* or /json for one of several). */
    public final List<ServedServlet> servlets = new ArrayList<>();
    /** The static folders, each at its context path ("" for one scenario alone, /s/name for one of several). */
    public final List<ServedFolder> folders = new ArrayList<>();

    /** A scenario's servlet: its class, the path pattern it answers, the folder it reads fixtures from (init parameter fixturesDir). */
    public static final class ServedServlet {
        public final String mapping;
        public final String className;
        public final String fixturesDir;

        ServedServlet(String mapping, String className, String fixturesDir) {
            this.mapping = mapping;
            this.className = className;
            this.fixturesDir = fixturesDir;
        }

        /** A new instance of the servlet class, as the container's Servlet type. */
        public <S> S newServlet(Class<S> type) throws ReflectiveOperationException {
            return type.cast(Class.forName(className).getDeclaredConstructor().newInstance());
        }
    }

    /** A static scenario's folder, served by the container's DefaultServlet under a context path. */
    public static final class ServedFolder {
        public final String contextPath;
        public final String root;

        ServedFolder(String contextPath, String root) {
            this.contextPath = contextPath;
            this.root = root;
        }
    }

    public ServerSettings() throws IOException {
        // one line per scenario, tab-separated: servlet MAPPING CLASS FIXTURES, or folder CONTEXT-PATH ROOT
        for (String line : Files.readAllLines(Paths.get(required("bench.served")), StandardCharsets.UTF_8)) {
            String[] fields = line.split("\t", -1);
            if (fields[0].equals("servlet") && fields.length == 4) servlets.add(new ServedServlet(fields[1], fields[2], fields[3]));
            else if (fields[0].equals("folder") && fields.length == 3) folders.add(new ServedFolder(fields[1], fields[2]));
            else if (!line.isEmpty()) throw new IllegalArgumentException("bench.served: cannot read line " + line);
        }
    }

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
}
