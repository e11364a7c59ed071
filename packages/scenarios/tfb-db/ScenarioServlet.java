package bench.scenario;

import bench.backend.TfbWorld;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;

/** TFB's single query: one World row by a random id. */
public final class ScenarioServlet extends HttpServlet {
    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException, ServletException {
        String body;
        try {
            try (Connection db = TfbWorld.connect()) {
                body = TfbWorld.json(TfbWorld.read(db, 1).get(0));
            }
        } catch (SQLException e) {
            throw new ServletException(e);
        }
        TfbWorld.sendJson(response, getServletContext().getServerInfo(), body);
    }
}
