package bench.resin;

import bench.server.ServerSettings;
import com.caucho.cloud.network.NetworkListenSystem;
import com.caucho.env.thread.ThreadPool;
import com.caucho.network.listen.TcpPort;
import com.caucho.resin.PortEmbed;
import com.caucho.resin.ResinEmbed;
import com.caucho.resin.ServletMappingEmbed;
import com.caucho.resin.WebAppEmbed;
import com.caucho.server.cluster.ServletService;
import com.caucho.server.http.HttpProtocol;

/**
 * Resin 4 embedded (com.caucho:resin from Maven Central, GPL): the scenarios' servlets in one
 * web-app at / (one scenario alone on every path), and Resin's own FileServlet over each static
 * folder. Resin's root and its servlets' web-app root are folders of the run's private dir.
 */
public final class ResinServer {
    public static void main(String[] args) {
        try {
            ServerSettings settings = new ServerSettings();
            ResinEmbed resin = start(settings);
            ThreadPool.getThreadPool().setThreadMax(settings.maxThreads);
            resin.join();
        } catch (Exception e) {
            // a failed start may leave Resin's threads alive: exit, so bench sees the failure at once
            e.printStackTrace();
            System.exit(1);
        }
    }

    private static ResinEmbed start(ServerSettings settings) throws Exception {
        ResinEmbed resin = new ResinEmbed();
        resin.setRootDirectory(settings.workDir + "/resin");
        HttpPort http = new HttpPort(settings);
        resin.addPort(http);
        // the servlets in one web-app at /, whose root is a folder of the private dir (Resin refuses its own root
        // directory); each static folder a web-app of its own, served by Resin's FileServlet
        if (!settings.servlets.isEmpty()) {
            WebAppEmbed webApp = new WebAppEmbed("/", settings.workDir + "/webapp");
            int index = 0;
            for (ServerSettings.ServedServlet served : settings.servlets) {
                ServletMappingEmbed servlet = new ServletMappingEmbed("scenario" + index++, served.mapping, served.className);
                servlet.setInitParam("fixturesDir", served.fixturesDir);
                servlet.setLoadOnStartup(1);
                webApp.addServletMapping(servlet);
            }
            resin.addWebApp(webApp);
        }
        for (ServerSettings.ServedFolder folder : settings.folders) {
            resin.addWebApp(new WebAppEmbed(folder.contextPath.isEmpty() ? "/" : folder.contextPath, folder.root));
        }
        resin.start();
        // listen only once Resin is active: a request that comes sooner waits 10 s for it
        http.listen();
        return resin;
    }

    /** Resin's HttpEmbed, with the listen backlog bench asks for (HttpEmbed has no setting for it), listening when told. */
    private static final class HttpPort extends PortEmbed {
        private final int backlog;
        private TcpPort port;

        HttpPort(ServerSettings settings) {
            setAddress(settings.host);
            setPort(settings.port);
            backlog = settings.backlog;
        }

        @Override
        public int getLocalPort() {
            return port == null ? getPort() : port.getLocalPort();
        }

        @Override
        public void bindTo(ServletService service) {
            try {
                port = new TcpPort();
                port.setProtocol(new HttpProtocol());
                port.setPort(getPort());
                port.setAddress(getAddress());
                port.setAcceptListenBacklog(backlog);
                port.init();
                service.getResinSystem().getService(NetworkListenSystem.class).addListener(port);
            } catch (Exception e) {
                throw new IllegalStateException("cannot listen on " + getAddress() + ":" + getPort(), e);
            }
        }

        void listen() throws Exception {
            port.start();
        }
    }
}
