import { execFileSync } from "node:child_process";
import { X509Certificate } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createServingCertificates, issueClientCertificate } from "../../../runtime/http/certificates.js";

describe("createServingCertificates", () => {
  it("makes a CA and a serving certificate it signed, for the given names", () => {
    const made = createServingCertificates({ dns: ["localhost"], ips: ["127.0.0.1", "::1"] });
    const ca = new X509Certificate(made.caCert);
    const serving = new X509Certificate(made.cert);
    expect(ca.ca).toBe(true);
    expect(ca.verify(ca.publicKey)).toBe(true);
    expect(serving.ca).toBe(false);
    expect(serving.verify(ca.publicKey)).toBe(true);
    expect(serving.checkIssued(ca)).toBe(true);
    expect(serving.subjectAltName).toBe("DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1");
    expect(made.key).toMatch(/^-----BEGIN PRIVATE KEY-----/);
  });
});

describe("issueClientCertificate", () => {
  it("signs a client certificate with the user as CN and groups as O", () => {
    const made = createServingCertificates({ dns: ["localhost"], ips: ["127.0.0.1"] });
    const client = issueClientCertificate(
      { cert: made.caCert, key: made.caKey as string },
      { commonName: "jane", organizations: ["system:masters", "dev"] },
    );
    const ca = new X509Certificate(made.caCert);
    const cert = new X509Certificate(client.cert);
    expect(cert.checkIssued(ca)).toBe(true);
    expect(cert.verify(ca.publicKey)).toBe(true);
    expect(cert.subject).toBe("O=system:masters\nO=dev\nCN=jane");
    expect(cert.keyUsage).toEqual(["1.3.6.1.5.5.7.3.2"]);
    expect(client.key).toMatch(/^-----BEGIN PRIVATE KEY-----/);
  });

  it.skipIf(!existsSync("/usr/bin/openssl"))("signs with another CA, RSA and with a longer subject", () => {
    const dir = mkdtempSync(join(tmpdir(), "kapi-ca-"));
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "1",
        "-subj",
        "/O=Example Org/CN=Example CA",
        "-keyout",
        join(dir, "ca.key"),
        "-out",
        join(dir, "ca.crt"),
      ],
      { stdio: "ignore" },
    );
    const caPem = readFileSync(join(dir, "ca.crt"), "utf8");
    const client = issueClientCertificate(
      { cert: caPem, key: readFileSync(join(dir, "ca.key"), "utf8") },
      { commonName: "bob" },
    );
    rmSync(dir, { recursive: true });
    const ca = new X509Certificate(caPem);
    const cert = new X509Certificate(client.cert);
    expect(cert.checkIssued(ca)).toBe(true);
    expect(cert.verify(ca.publicKey)).toBe(true);
    expect(cert.issuer).toBe(ca.subject);
  });
});
