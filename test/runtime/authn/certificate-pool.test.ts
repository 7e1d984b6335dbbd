import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  CertificatePool,
  certificateFields,
  certificateIdentifier,
  clientAuthUsage,
} from "../../../runtime/authn/certificate-pool.js";
import { anyUsage, issueCa, issueCertificate, printable, serverAuth, uidAttribute } from "./test-certificates.js";

const hour = 3_600_000;

describe("certificateFields", () => {
  it("reads the subject, validity, constraints, usages and key identifiers", () => {
    const ca = issueCa("root", { ca: { pathLength: 1 } });
    const leaf = issueCertificate(
      { commonName: "jane", organizations: ["dev", "ops"], attributes: [[uidAttribute, printable("u-1")]] },
      ca,
    );
    const fields = certificateFields(leaf.x509);
    expect(fields.version).toBe(3);
    expect(fields.serialNumber).toBe(BigInt(`0x${leaf.x509.serialNumber}`));
    expect(fields.subjectAttributes).toEqual([
      { type: "2.5.4.10", value: "dev" },
      { type: "2.5.4.10", value: "ops" },
      { type: uidAttribute, value: "u-1" },
      { type: "2.5.4.3", value: "jane" },
    ]);
    expect(fields.issuer.equals(ca.subject)).toBe(true);
    expect(fields.basicConstraints).toEqual({ ca: false, maxPathLength: undefined });
    expect(fields.keyUsage).toBe(1);
    expect(fields.extendedKeyUsage).toEqual([clientAuthUsage]);
    expect(fields.subjectKeyId?.equals(leaf.keyId)).toBe(true);
    expect(fields.authorityKeyId?.equals(ca.keyId)).toBe(true);
    expect(fields.notBefore.getTime()).toBe(new Date(leaf.x509.validFrom).getTime());
    expect(fields.notAfter.getTime()).toBe(new Date(leaf.x509.validTo).getTime());
    expect(certificateFields(ca.x509).basicConstraints).toEqual({ ca: true, maxPathLength: 1 });
    expect(certificateFields(ca.x509).keyUsage).toBe((1 << 5) | (1 << 6));
  });

  it("names a certificate as kube does in its errors", () => {
    const leaf = issueCertificate({ commonName: "jane" }, issueCa("root"));
    const hex = (b: Buffer | undefined) => (b?.toString("hex").toUpperCase().match(/../g) ?? []).join(":");
    const fields = certificateFields(leaf.x509);
    expect(certificateIdentifier(leaf.x509)).toBe(
      `SN=${fields.serialNumber}, SKID=${hex(fields.subjectKeyId)}, AKID=${hex(fields.authorityKeyId)}`,
    );
  });
});

describe("CertificatePool.fromPem and fromFile", () => {
  it("reads every CERTIFICATE block of a bundle", () => {
    const a = issueCa("a");
    const b = issueCa("b");
    const pool = CertificatePool.fromPem(
      `junk\n${a.cert}-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n${b.cert}`,
    );
    expect(pool.certificates.map((c) => c.subject)).toEqual(["CN=a", "CN=b"]);
    expect(pool.pem()).toEqual([a.cert, b.cert]);
  });

  it("refuses a bundle without certificates, and files with kube's wording", () => {
    expect(() => CertificatePool.fromPem("nothing")).toThrow(
      "data does not contain any valid RSA or ECDSA certificates",
    );
    const dir = mkdtempSync(join(tmpdir(), "kapi-ca-"));
    writeFileSync(join(dir, "empty.crt"), "");
    writeFileSync(join(dir, "junk.crt"), "junk");
    expect(() => CertificatePool.fromFile("client-ca-bundle", join(dir, "empty.crt"))).toThrow(
      `missing content for CA bundle "client-ca-bundle::${join(dir, "empty.crt")}"`,
    );
    expect(() => CertificatePool.fromFile("client-ca-bundle", join(dir, "junk.crt"))).toThrow(
      `error loading CA bundle for "client-ca-bundle::${join(dir, "junk.crt")}": data does not contain any valid RSA or ECDSA certificates`,
    );
    expect(() => CertificatePool.fromFile("client-ca-bundle", join(dir, "missing.crt"))).toThrow(/ENOENT/);
  });
});

describe("CertificatePool.verify", () => {
  const root = issueCa("root");
  const pool = new CertificatePool([root.x509]);
  const verify = (chain: { x509: import("node:crypto").X509Certificate }[], now?: Date) =>
    pool.verify(
      chain.map((c) => c.x509),
      clientAuthUsage,
      now,
    );

  it("verifies a leaf signed by a CA of the pool", () => {
    const leaf = issueCertificate({ commonName: "jane" }, root);
    expect(verify([leaf]).map((chain) => chain.map((c) => c.subject))).toEqual([["CN=jane", "CN=root"]]);
  });

  it("follows the intermediates the client sent, in any order", () => {
    const first = issueCa("first", {}, root);
    const second = issueCa("second", {}, first);
    const leaf = issueCertificate({ commonName: "jane" }, second);
    expect(verify([leaf, first, second]).map((chain) => chain.map((c) => c.subject))).toEqual([
      ["CN=jane", "CN=second", "CN=first", "CN=root"],
    ]);
    expect(() => verify([leaf, second])).toThrow("x509: certificate signed by unknown authority");
  });

  it("verifies with an RSA CA", () => {
    const rsa = issueCa("rsa-root", { keyType: "rsa" });
    const leaf = issueCertificate({ commonName: "jane" }, rsa);
    expect(new CertificatePool([rsa.x509]).verify([leaf.x509], clientAuthUsage)).toHaveLength(1);
  });

  it("accepts a leaf that is itself in the pool", () => {
    const self = issueCertificate({ commonName: "self", ca: true });
    expect(new CertificatePool([self.x509]).verify([self.x509], clientAuthUsage)).toEqual([[self.x509]]);
  });

  it("refuses a certificate of another CA, and says why when a candidate failed", () => {
    const other = issueCa("root");
    const leaf = issueCertificate({ commonName: "jane" }, other);
    expect(() => verify([leaf])).toThrow(
      'x509: certificate signed by unknown authority (possibly because of "x509: ECDSA verification failure" while trying to verify candidate authority certificate "root")',
    );
    const stranger = issueCertificate({ commonName: "jane" }, issueCa("stranger"));
    expect(() => verify([stranger])).toThrow(/^x509: certificate signed by unknown authority$/);
  });

  it("checks validity periods with Go's wording", () => {
    const leaf = issueCertificate({ commonName: "jane" }, root);
    const later = new Date(Date.now() + 48 * hour);
    const notAfter = certificateFields(leaf.x509).notAfter.toISOString().replace(".000", "");
    expect(() => verify([leaf], later)).toThrow(
      `x509: certificate has expired or is not yet valid: current time ${later.toISOString().replace(/\.\d+Z/, "Z")} is after ${notAfter}`,
    );
    const early = issueCertificate({ commonName: "jane", notBefore: new Date(Date.now() + hour) }, root);
    expect(() => verify([early])).toThrow(/is before/);
    const expiredIntermediate = issueCa("mid", { notAfter: new Date(Date.now() - 1000) }, root);
    const leafOfExpired = issueCertificate({ commonName: "jane" }, expiredIntermediate);
    expect(() => verify([leafOfExpired, expiredIntermediate])).toThrow(
      /unknown authority \(possibly because of "x509: certificate has expired or is not yet valid: .*" while trying to verify candidate authority certificate "mid"\)/,
    );
  });

  it("requires issuers to be CAs allowed to sign", () => {
    const notCa = issueCertificate({ commonName: "mid", ca: false }, root);
    const leaf = issueCertificate({ commonName: "jane" }, notCa);
    expect(() => verify([leaf, notCa])).toThrow(/parent certificate cannot sign this kind of certificate/);
    const noSigning = issueCa("mid", { keyUsage: [0] }, root);
    expect(() => verify([issueCertificate({ commonName: "jane" }, noSigning), noSigning])).toThrow(
      /parent certificate cannot sign/,
    );
  });

  it("enforces path length constraints", () => {
    const limited = issueCa("limited", { ca: { pathLength: 0 } });
    const mid = issueCa("mid", {}, limited);
    const leaf = issueCertificate({ commonName: "jane" }, mid);
    expect(() => new CertificatePool([limited.x509]).verify([leaf.x509, mid.x509], clientAuthUsage)).toThrow(
      /too many intermediates for path length constraint/,
    );
    const direct = issueCertificate({ commonName: "jane" }, limited);
    expect(new CertificatePool([limited.x509]).verify([direct.x509], clientAuthUsage)).toHaveLength(1);
  });

  it("requires client authentication along the chain, as Go's extended key usage check", () => {
    const serverOnly = issueCertificate({ commonName: "server", extendedKeyUsage: [serverAuth] }, root);
    expect(() => verify([serverOnly])).toThrow("x509: certificate specifies an incompatible key usage");
    expect(verify([issueCertificate({ commonName: "any", extendedKeyUsage: [anyUsage] }, root)])).toHaveLength(1);
    expect(verify([issueCertificate({ commonName: "none", extendedKeyUsage: [] }, root)])).toHaveLength(1);
    const serverCa = issueCa("server-ca", { extendedKeyUsage: [serverAuth] }, root);
    const below = issueCertificate({ commonName: "jane" }, serverCa);
    expect(() => verify([below, serverCa])).toThrow("x509: certificate specifies an incompatible key usage");
  });
});
