package bench.scenario;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** escape: 100 rounds of PHP's htmlspecialchars(S . ' ' . i, ENT_QUOTES), joined by \n. */
public final class ScenarioServlet extends HttpServlet {
    private static final String SOURCE = "<a href=\"/search?q=caf&lang=en\">Tom's \"best\" <b>deals</b> & more</a>";

    /** Exactly & < > " ' become entities, as htmlspecialchars with ENT_QUOTES does. */
    static void escapeHtml(String text, StringBuilder out) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&': out.append("&amp;"); break;
                case '<': out.append("&lt;"); break;
                case '>': out.append("&gt;"); break;
                case '"': out.append("&quot;"); break;
                case '\'': out.append("&#039;"); break;
                default: out.append(c);
            }
        }
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setContentType("text/html; charset=utf-8");
        StringBuilder out = new StringBuilder(13_000);
        for (int i = 1; i <= 100; i++) {
            if (i > 1) out.append('\n');
            escapeHtml(SOURCE + " " + i, out);
        }
        response.getWriter().print(out);
    }
}
