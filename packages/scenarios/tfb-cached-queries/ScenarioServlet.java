package bench.scenario;

import bench.backend.TfbWorld;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.sql.SQLException;

/** TFB's cached queries: N random World rows from a cache in the JVM, filled from World at first use. */
public final class ScenarioServlet extends HttpServlet {
    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException, ServletException {
        String body;
        try {
            body = TfbWorld.json(TfbWorld.cached(TfbWorld.count(request.getParameter("count"))));
        } catch (SQLException e) {
            throw new ServletException(e);
        }
        TfbWorld.sendJson(response, getServletContext().getServerInfo(), body);
    }
}
