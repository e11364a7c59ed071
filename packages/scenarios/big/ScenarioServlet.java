package bench.scenario;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** big: the 64 KiB block, read once when the servlet starts and sent from memory (as the Node handler does). */
public final class ScenarioServlet extends HttpServlet {
    private byte[] block;

    @Override
    public void init() throws ServletException {
        try {
            block = Files.readAllBytes(Path.of(getInitParameter("fixturesDir"), "block.txt"));
        } catch (IOException e) {
            throw new ServletException(e);
        }
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setContentType("text/plain; charset=utf-8");
        response.setContentLength(block.length);
        response.getOutputStream().write(block);
    }
}
