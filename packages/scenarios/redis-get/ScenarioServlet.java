package bench.scenario;

import bench.backend.RedisBackend;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import redis.clients.jedis.Jedis;

/** redis-get: Redis GET test. */
public final class ScenarioServlet extends HttpServlet {
    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String value;
        try (Jedis redis = RedisBackend.connect()) {
            value = redis.get("test");
        }
        response.setContentType("text/plain; charset=utf-8");
        response.getWriter().print(value);
    }
}
