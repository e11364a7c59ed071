package bench.scenario;

import bench.backend.MemcachedBackend;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** memcache-get: memcached get test. */
public final class ScenarioServlet extends HttpServlet {
    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Object value = MemcachedBackend.get("test");
        response.setContentType("text/plain; charset=utf-8");
        response.getWriter().print(value);
    }
}
