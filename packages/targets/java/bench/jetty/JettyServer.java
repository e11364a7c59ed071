package bench.jetty;

import bench.server.ServerSettings;
import javax.servlet.Servlet;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.servlet.DefaultServlet;
import org.eclipse.jetty.servlet.ServletContextHandler;
import org.eclipse.jetty.servlet.ServletHolder;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * Jetty 9 embedded (Debian's libjetty9-java, the jars of the jetty9 package): one context at /,
 * either the scenario's servlet on every path or Jetty's own DefaultServlet over the static folder.
 * No jetty.base, no XML, no deployer: only what the scenario uses is started.
 */
public final class JettyServer {
    public static void main(String[] args) {
        try {
            start(new ServerSettings()).join();
        } catch (Exception e) {
            // a failed start may leave Jetty's threads alive: exit, so bench sees the failure at once
            e.printStackTrace();
            System.exit(1);
        }
    }

    private static Server start(ServerSettings settings) throws Exception {
        Server server = new Server(new QueuedThreadPool(settings.maxThreads));

        ServerConnector connector = new ServerConnector(server);
        connector.setHost(settings.host);
        connector.setPort(settings.port);
        connector.setAcceptQueueSize(settings.backlog);
        server.addConnector(connector);

        ServletContextHandler context = new ServletContextHandler(ServletContextHandler.NO_SESSIONS);
        context.setContextPath("/");
        if (settings.isStatic()) {
            context.setResourceBase(settings.staticRoot);
            context.addServlet(new ServletHolder("default", DefaultServlet.class), "/");
        } else {
            ServletHolder servlet = new ServletHolder("scenario", settings.newServlet(Servlet.class));
            servlet.setInitParameter("fixturesDir", settings.fixturesDir);
            servlet.setInitOrder(1);
            context.addServlet(servlet, "/*");
        }
        server.setHandler(context);
        server.start();
        return server;
    }
}
