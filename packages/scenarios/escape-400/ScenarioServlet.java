package bench.scenario;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** escape-400: escape's 100 rounds of htmlspecialchars(S . ' ' . i, ENT_QUOTES), answered as a 400-byte page. */
public final class ScenarioServlet extends HttpServlet {
    private static final String SOURCE = "<a href=\"/search?q=caf&lang=en\">Tom's \"best\" <b>deals</b> & more</a>";

    /** Exactly & < > " ' become entities, as htmlspecialchars with ENT_QUOTES does (& first, so no entity is escaped twice). */
    static String escapeHtml(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;").replace("'", "&#039;");
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setContentType("text/html; charset=utf-8");
        String first = null;
        String last = null;
        int bytes = 0;
        int count = 0;
        for (int i = 1; i <= 100; i++) {
            last = escapeHtml(SOURCE + " " + i);
            if (first == null) first = last;
            bytes += last.length();
            count++;
        }
        StringBuilder out = new StringBuilder(400);
        out.append("<html>\n<head><title>100 calls of htmlspecialchars</title></head>\n<body>\n");
        out.append("<p>").append(first).append("</p>\n<p>").append(last).append("</p>\n");
        out.append("<p>").append(count).append(" strings escaped, ").append(bytes).append(" bytes</p>\n");
        out.append("</body>\n</html>\n");
        response.getWriter().print(out);
    }
}
