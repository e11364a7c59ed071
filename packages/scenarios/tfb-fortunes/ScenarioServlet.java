package bench.scenario;

import bench.backend.TfbWorld;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** TFB's fortunes: every row, one added, sorted, escaped into the table. */
public final class ScenarioServlet extends HttpServlet {
    private record Fortune(int id, String message) {}

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException, ServletException {
        List<Fortune> fortunes = new ArrayList<>();
        try (Connection db = TfbWorld.connect(); Statement statement = db.createStatement(); ResultSet row = statement.executeQuery("SELECT id, message FROM Fortune")) {
            while (row.next()) fortunes.add(new Fortune(row.getInt(1), row.getString(2)));
        } catch (SQLException e) {
            throw new ServletException(e);
        }
        fortunes.add(new Fortune(0, "Additional fortune added at request time."));
        fortunes.sort(Comparator.comparing(Fortune::message));
        StringBuilder html = new StringBuilder("<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>");
        for (Fortune fortune : fortunes) html.append("<tr><td>").append(fortune.id()).append("</td><td>").append(escape(fortune.message())).append("</td></tr>");
        html.append("</table></body></html>");
        response.setHeader("Server", getServletContext().getServerInfo());
        response.setContentType("text/html; charset=utf-8");
        response.getWriter().print(html);
    }

    private static String escape(String text) {
        StringBuilder out = new StringBuilder(text.length() + 16);
        for (char c : text.toCharArray()) {
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}
