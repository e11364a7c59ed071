package bench.scenario;

import bench.backend.MysqlBackend;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.sql.SQLException;

/** cache: as db, and cacheable for 15 s (the servlet container has no output cache: every request queries). */
public final class ScenarioServlet extends HttpServlet {
    private static final int MAX_AGE_SECONDS = 15;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException, ServletException {
        String body;
        try {
            body = MysqlBackend.twoSelects();
        } catch (SQLException e) {
            throw new ServletException(e);
        }
        response.setContentType("text/plain; charset=utf-8");
        response.setDateHeader("Expires", System.currentTimeMillis() + MAX_AGE_SECONDS * 1000L);
        response.setHeader("Cache-Control", "max-age=" + MAX_AGE_SECONDS);
        response.getWriter().print(body);
    }
}
