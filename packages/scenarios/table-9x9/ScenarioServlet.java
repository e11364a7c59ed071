package bench.scenario;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.PrintWriter;

/** table-9x9: the multiplication table page, generated per request with nested loops. */
public final class ScenarioServlet extends HttpServlet {
    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setContentType("text/html; charset=utf-8");
        PrintWriter out = response.getWriter();
        out.print("<html>\n<head><title>9x9</title></head>\n<body>\n<table border=1>\n");
        for (int x = 1; x <= 9; x++) {
            out.print("<tr>");
            for (int y = 1; y <= 9; y++) {
                out.print("<td nowrap>" + x + " x " + y + " = " + (x * y) + "</td>");
            }
            out.print("</tr>\n");
        }
        out.print("</table>\n</body>\n</html>\n");
    }
}
