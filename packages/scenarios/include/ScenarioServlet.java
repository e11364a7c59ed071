package bench.scenario;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** include: the four text files read from disk on every request (as PHP's include does), joined by `<p><hr><p>`. */
public final class ScenarioServlet extends HttpServlet {
    private static final byte[] HEAD = "<html>\n<body>\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SEPARATOR = "<p><hr><p>".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] TAIL = "</body>\n</html>\n".getBytes(StandardCharsets.US_ASCII);

    private Path[] files;

    @Override
    public void init() {
        String dir = getInitParameter("fixturesDir");
        files = new Path[] {Path.of(dir, "include1.txt"), Path.of(dir, "include2.txt"), Path.of(dir, "include3.txt"), Path.of(dir, "include4.txt")};
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setContentType("text/html; charset=utf-8");
        ServletOutputStream out = response.getOutputStream();
        out.write(HEAD);
        for (int i = 0; i < files.length; i++) {
            if (i > 0) out.write(SEPARATOR);
            out.write(Files.readAllBytes(files[i]));
        }
        out.write(TAIL);
    }
}
