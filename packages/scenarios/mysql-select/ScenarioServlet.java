package bench.scenario;

import bench.backend.MysqlBackend;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** mysql-select: SELECT * FROM testtable, the name column of the first row. */
public final class ScenarioServlet extends HttpServlet {
    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException, ServletException {
        String name;
        try (Connection db = MysqlBackend.connect();
                Statement statement = db.createStatement();
                ResultSet row = statement.executeQuery("SELECT * FROM testtable")) {
            row.next();
            name = row.getString("name");
        } catch (SQLException e) {
            throw new ServletException(e);
        }
        response.setContentType("text/plain; charset=utf-8");
        response.getWriter().print(name);
    }
}
