package bench.server;

import java.io.FileInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;

/**
 * The run's certificate and key (PEM files bench wrote in the run's private dir) as an in-memory key
 * store, the form the containers' TLS connectors take: nothing written to disk, no keytool.
 */
public final class PemKeyStore {
    /** The password of the in-memory store; it never leaves this process. */
    public static final String PASSWORD = "bench";

    private PemKeyStore() {}

    public static KeyStore load(String certFile, String keyFile) throws Exception {
        Certificate certificate;
        try (InputStream in = new FileInputStream(certFile)) {
            certificate = CertificateFactory.getInstance("X.509").generateCertificate(in);
        }
        // openssl 3 writes PKCS#8 ("BEGIN PRIVATE KEY"): the base64 between the armour lines
        String pem = new String(Files.readAllBytes(Paths.get(keyFile)), StandardCharsets.US_ASCII);
        String body = pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        PrivateKey key = KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(body)));
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setKeyEntry("bench", key, PASSWORD.toCharArray(), new Certificate[] {certificate});
        return store;
    }
}
