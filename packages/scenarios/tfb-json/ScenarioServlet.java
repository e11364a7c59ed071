package bench.scenario;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** TFB's json: the object serialised on every request. */
public final class ScenarioServlet extends HttpServlet {
    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Map<String, String> hello = Map.of("message", "Hello, World!");
        StringBuilder json = new StringBuilder("{");
        for (Map.Entry<String, String> entry : hello.entrySet()) {
            json.append('"').append(entry.getKey()).append("\":\"").append(entry.getValue()).append('"');
        }
        byte[] body = json.append('}').toString().getBytes(StandardCharsets.UTF_8);
        response.setHeader("Server", getServletContext().getServerInfo());
        response.setContentType("application/json");
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }
}
