package bench.scenario;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * loop: `Hello, World N\n` for N = 1..4000, generated in a loop per request, then sent with its
 * length (as the Node handler does). Written straight to the response instead, a body beyond the
 * container's buffer goes out unframed from Jetty 9 when the request says Connection: close.
 */
public final class ScenarioServlet extends HttpServlet {
    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        StringBuilder out = new StringBuilder(72_000);
        for (int n = 1; n <= 4000; n++) {
            out.append("Hello, World ").append(n).append('\n');
        }
        byte[] body = out.toString().getBytes(StandardCharsets.US_ASCII);
        response.setContentType("text/plain; charset=utf-8");
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }
}
