package bench.jetty;

import bench.server.PemKeyStore;
import bench.server.ServerSettings;
import javax.servlet.Servlet;
import org.eclipse.jetty.alpn.server.ALPNServerConnectionFactory;
import org.eclipse.jetty.http2.HTTP2Cipher;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.http2.server.HTTP2ServerConnectionFactory;
import org.eclipse.jetty.server.ConnectionFactory;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.server.handler.ContextHandlerCollection;
import org.eclipse.jetty.servlet.DefaultServlet;
import org.eclipse.jetty.servlet.ServletContextHandler;
import org.eclipse.jetty.servlet.ServletHolder;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * Jetty 9 embedded (Debian's libjetty9-java, the jars of the jetty9 package): the scenarios'
 * servlets in one context at / (one scenario alone on every path), and Jetty's own DefaultServlet
 * over each static folder. No jetty.base, no XML, no deployer: only what is served is started.
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

    /**
     * What the connector speaks: HTTP/1.1; over TLS the run's certificate first; HTTP/2 by ALPN over TLS (HTTP/1.1
     * for a client that does not offer h2) or by its preface in cleartext.
     */
    private static ConnectionFactory[] connectionFactories(ServerSettings settings) throws Exception {
        HttpConfiguration config = new HttpConfiguration();
        if (settings.overTls()) config.addCustomizer(new SecureRequestCustomizer());
        HttpConnectionFactory http1 = new HttpConnectionFactory(config);
        if (settings.protocol.equals("h2c")) return new ConnectionFactory[] {http1, new HTTP2CServerConnectionFactory(config)};
        if (!settings.overTls()) return new ConnectionFactory[] {http1};
        SslContextFactory.Server tls = new SslContextFactory.Server();
        tls.setKeyStore(PemKeyStore.load(settings.certFile, settings.keyFile));
        tls.setKeyStorePassword(PemKeyStore.PASSWORD);
        if (!settings.http2()) return new ConnectionFactory[] {new SslConnectionFactory(tls, http1.getProtocol()), http1};
        tls.setCipherComparator(HTTP2Cipher.COMPARATOR);
        ALPNServerConnectionFactory alpn = new ALPNServerConnectionFactory();
        alpn.setDefaultProtocol(http1.getProtocol());
        return new ConnectionFactory[] {new SslConnectionFactory(tls, alpn.getProtocol()), alpn, new HTTP2ServerConnectionFactory(config), http1};
    }

    private static Server start(ServerSettings settings) throws Exception {
        Server server = new Server(new QueuedThreadPool(settings.maxThreads));

        ServerConnector connector = new ServerConnector(server, connectionFactories(settings));
        connector.setHost(settings.host);
        connector.setPort(settings.port);
        connector.setAcceptQueueSize(settings.backlog);
        server.addConnector(connector);

        // the servlets in one context at /, each static folder in a context of its own (the longest path matches)
        ContextHandlerCollection contexts = new ContextHandlerCollection();
        if (!settings.servlets.isEmpty()) {
            ServletContextHandler context = new ServletContextHandler(ServletContextHandler.NO_SESSIONS);
            context.setContextPath("/");
            int index = 0;
            for (ServerSettings.ServedServlet served : settings.servlets) {
                ServletHolder servlet = new ServletHolder("scenario" + index++, served.newServlet(Servlet.class));
                servlet.setInitParameter("fixturesDir", served.fixturesDir);
                servlet.setInitOrder(1);
                context.addServlet(servlet, served.mapping);
            }
            contexts.addHandler(context);
        }
        for (ServerSettings.ServedFolder folder : settings.folders) {
            ServletContextHandler context = new ServletContextHandler(ServletContextHandler.NO_SESSIONS);
            context.setContextPath(folder.contextPath.isEmpty() ? "/" : folder.contextPath);
            context.setResourceBase(folder.root);
            context.addServlet(new ServletHolder("default", DefaultServlet.class), "/");
            contexts.addHandler(context);
        }
        server.setHandler(contexts);
        server.start();
        return server;
    }
}
