package bench.scenario;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/** TFB's plaintext. */
public final class ScenarioServlet extends HttpServlet {
    private static final byte[] BODY = "Hello, World!".getBytes(StandardCharsets.US_ASCII);

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setHeader("Server", getServletContext().getServerInfo());
        response.setContentType("text/plain");
        response.setContentLength(BODY.length);
        response.getOutputStream().write(BODY);
    }
}
