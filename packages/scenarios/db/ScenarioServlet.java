package bench.scenario;

import bench.backend.MysqlBackend;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.sql.SQLException;

/** db: two SELECTs, answered as the name, \n, the id. */
public final class ScenarioServlet extends HttpServlet {
    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException, ServletException {
        String body;
        try {
            body = MysqlBackend.twoSelects();
        } catch (SQLException e) {
            throw new ServletException(e);
        }
        response.setContentType("text/plain; charset=utf-8");
        response.getWriter().print(body);
    }
}
