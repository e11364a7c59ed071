package bench.tomcat;

import bench.server.PemKeyStore;
import bench.server.ServerSettings;
import jakarta.servlet.Servlet;
import org.apache.catalina.Context;
import org.apache.catalina.Lifecycle;
import org.apache.catalina.Wrapper;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.core.StandardContext;
import org.apache.catalina.servlets.DefaultServlet;
import org.apache.catalina.startup.Tomcat;
import org.apache.coyote.http2.Http2Protocol;
import org.apache.tomcat.util.net.SSLHostConfig;
import org.apache.tomcat.util.net.SSLHostConfigCertificate;

/**
 * Tomcat 10 embedded (Debian's libtomcat10-embed-java): the scenarios' servlets in one context at /
 * (one scenario alone on every path), and Tomcat's own DefaultServlet over each static folder. No
 * server.xml, no web.xml, no jar or annotation scanning, no JSP engine: only what is served is started.
 */
public final class TomcatServer {
    public static void main(String[] args) {
        try {
            start(new ServerSettings()).getServer().await();
        } catch (Exception e) {
            // a failed start leaves Tomcat's threads alive: exit, so bench sees the failure at once
            e.printStackTrace();
            System.exit(1);
        }
    }

    private static Tomcat start(ServerSettings settings) throws Exception {
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(settings.workDir);

        Connector connector = new Connector("HTTP/1.1");
        connector.setPort(settings.port);
        connector.setProperty("address", settings.host);
        connector.setProperty("acceptCount", String.valueOf(settings.backlog));
        connector.setProperty("maxThreads", String.valueOf(settings.maxThreads));
        connector.setProperty("maxKeepAliveRequests", String.valueOf(settings.maxKeepAliveRequests));
        if (settings.overTls()) {
            // JSSE with the run's certificate; over h2, ALPN offers h2 beside http/1.1
            connector.setSecure(true);
            connector.setScheme("https");
            connector.setProperty("SSLEnabled", "true");
            SSLHostConfig tls = new SSLHostConfig();
            SSLHostConfigCertificate certificate = new SSLHostConfigCertificate(tls, SSLHostConfigCertificate.Type.RSA);
            certificate.setCertificateKeystore(PemKeyStore.load(settings.certFile, settings.keyFile));
            certificate.setCertificateKeystorePassword(PemKeyStore.PASSWORD);
            tls.addCertificate(certificate);
            connector.addSslHostConfig(tls);
        }
        // HTTP/2 on the same connector: by ALPN over TLS, by its preface (prior knowledge) in cleartext
        if (settings.http2()) connector.addUpgradeProtocol(new Http2Protocol());
        tomcat.setConnector(connector);

        // the servlets in one context at /, each static folder in a context of its own
        if (!settings.servlets.isEmpty()) {
            Context context = addContext(tomcat, "", settings.workDir);
            int index = 0;
            for (ServerSettings.ServedServlet served : settings.servlets) {
                String name = "scenario" + index++;
                Wrapper servlet = Tomcat.addServlet(context, name, served.newServlet(Servlet.class));
                servlet.addInitParameter("fixturesDir", served.fixturesDir);
                servlet.setLoadOnStartup(1);
                context.addServletMapping(served.mapping, name);
            }
        }
        for (ServerSettings.ServedFolder folder : settings.folders) {
            Context context = addContext(tomcat, folder.contextPath, folder.root);
            Tomcat.addServlet(context, "default", new DefaultServlet());
            context.addServletMapping("/", "default");
            Tomcat.addDefaultMimeTypeMappings(context);
        }
        tomcat.start();
        return tomcat;
    }

    private static Context addContext(Tomcat tomcat, String path, String docBase) {
        // Tomcat.addContext would add a listener that scans the servlets for annotations (and needs the
        // annotations API jar); these servlets are registered here, so configuring is all there is to do
        Context context = new StandardContext();
        context.setName(path);
        context.setPath(path);
        context.setDocBase(docBase);
        context.addLifecycleListener(event -> {
            if (Lifecycle.CONFIGURE_START_EVENT.equals(event.getType())) context.setConfigured(true);
        });
        tomcat.getHost().addChild(context);
        return context;
    }
}
