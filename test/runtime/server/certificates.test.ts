import { X509Certificate } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createServingCertificates } from "../../../runtime/http/certificates.js";

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
