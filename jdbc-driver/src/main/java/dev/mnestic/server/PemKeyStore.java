package dev.mnestic.server;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A key store held in memory only, made of PEM files as {@code openssl}
 * writes them: a certificate chain (the server's certificate first) and an
 * unencrypted PKCS#8 private key ({@code -----BEGIN PRIVATE KEY-----}, RSA,
 * EC or Ed25519).
 */
final class PemKeyStore {
  /** The password of the in-memory key store and its one entry; it protects nothing on disk. */
  static final char[] PASSWORD = new char[0];
  private static final Pattern PRIVATE_KEY = Pattern.compile(
      "-----BEGIN PRIVATE KEY-----([A-Za-z0-9+/=\\s]+)-----END PRIVATE KEY-----");

  private PemKeyStore() {
  }

  /** The key store with one entry, {@code server}: the key and its certificate chain. */
  static KeyStore load(Path certificateChain, Path privateKey) throws IOException {
    final List<? extends Certificate> chain;
    try {
      chain = List.copyOf(CertificateFactory.getInstance("X.509")
          .generateCertificates(new ByteArrayInputStream(Files.readAllBytes(certificateChain))));
    } catch (GeneralSecurityException e) {
      throw new IOException("--tls-cert " + certificateChain
          + ": not a PEM certificate chain: " + e.getMessage(), e);
    }
    if (chain.isEmpty()) {
      throw new IOException("--tls-cert " + certificateChain + ": no certificate in the file");
    }
    final PrivateKey key = privateKey(privateKey, chain.get(0).getPublicKey().getAlgorithm());
    try {
      final KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, PASSWORD);
      store.setKeyEntry("server", key, PASSWORD, chain.toArray(new Certificate[0]));
      return store;
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot hold the key of --tls-key " + privateKey
          + " with the certificates of --tls-cert " + certificateChain + ": " + e.getMessage(), e);
    }
  }

  private static PrivateKey privateKey(Path file, String algorithm) throws IOException {
    final String pem = Files.readString(file, StandardCharsets.US_ASCII);
    final Matcher m = PRIVATE_KEY.matcher(pem);
    if (!m.find()) {
      throw new IOException("--tls-key " + file + ": expected an unencrypted PKCS#8 PEM key"
          + " (-----BEGIN PRIVATE KEY-----); convert one with"
          + " openssl pkcs8 -topk8 -nocrypt -in KEY -out KEY.pkcs8");
    }
    final byte[] der = Base64.getMimeDecoder().decode(m.group(1));
    try {
      return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
    } catch (GeneralSecurityException e) {
      throw new IOException("--tls-key " + file + ": not a " + algorithm
          + " key matching the certificate: " + e.getMessage(), e);
    }
  }
}
