// HttpURLConnection with a BufferedReader, trusting only the CA file given; article 002's Java client.
import java.io.BufferedReader;
import java.io.FileInputStream;
import java.io.InputStreamReader;
import java.net.URL;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

public class Client {
    public static void main(String[] args) throws Exception {
        KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
        trusted.load(null, null);
        try (FileInputStream in = new FileInputStream(args[2])) {
            trusted.setCertificateEntry("bench-ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(trusted);
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(null, trust.getTrustManagers(), null);
        for (int i = Integer.parseInt(args[1]); i > 0; i--) {
            HttpsURLConnection con = (HttpsURLConnection) new URL(args[0]).openConnection();
            con.setSSLSocketFactory(tls.getSocketFactory());
            con.setRequestMethod("GET");
            StringBuilder response = new StringBuilder();
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(con.getInputStream()))) {
                String line;
                while ((line = reader.readLine()) != null) response.append(line);
            }
            System.out.println(response);
        }
    }
}
