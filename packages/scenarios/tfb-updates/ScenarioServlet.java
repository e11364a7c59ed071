package bench.scenario;

import bench.backend.TfbWorld;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/** TFB's updates: N World rows read one query each, given new numbers, written back one UPDATE a row in a transaction. */
public final class ScenarioServlet extends HttpServlet {
    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException, ServletException {
        String body;
        try {
            try (Connection db = TfbWorld.connect()) {
                List<TfbWorld.Row> rows = TfbWorld.read(db, TfbWorld.count(request.getParameter("queries")));
                for (TfbWorld.Row row : rows) row.randomNumber = TfbWorld.randomId();
                TfbWorld.write(db, rows);
                body = TfbWorld.json(rows);
            }
        } catch (SQLException e) {
            throw new ServletException(e);
        }
        TfbWorld.sendJson(response, getServletContext().getServerInfo(), body);
    }
}
