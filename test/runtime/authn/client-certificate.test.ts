import { createHash, type X509Certificate } from "node:crypto";
import { describe, expect, it } from "vitest";
import { AuthenticationError, type AuthenticationRequest } from "../../../runtime/access/authenticator.js";
import { CertificatePool, certificateIdentifier } from "../../../runtime/authn/certificate-pool.js";
import { ClientCertificateAuthenticator, credentialIdKey } from "../../../runtime/authn/client-certificate.js";
import { issueCa, issueCertificate, printable, type TestCertificate, uidAttribute } from "./test-certificates.js";

const request = (...chain: TestCertificate[]): AuthenticationRequest => ({
  headers: {},
  peerCertificates: (): X509Certificate[] => chain.map((c) => c.x509),
});

const fingerprint = (cert: TestCertificate) => `X509SHA256=${createHash("sha256").update(cert.x509.raw).digest("hex")}`;

describe("ClientCertificateAuthenticator", () => {
  const root = issueCa("root");
  const authenticator = new ClientCertificateAuthenticator(new CertificatePool([root.x509]));

  it("has no opinion without a certificate", async () => {
    expect(await authenticator.authenticate(request())).toBeUndefined();
  });

  it("maps CN to the user, each O to a group, and records the credential id", async () => {
    const leaf = issueCertificate({ commonName: "jane", organizations: ["system:masters", "dev"] }, root);
    expect(await authenticator.authenticate(request(leaf))).toEqual({
      user: { name: "jane", groups: ["system:masters", "dev"], extra: { [credentialIdKey]: [fingerprint(leaf)] } },
    });
  });

  it("uses the intermediates the client sent", async () => {
    const mid = issueCa("mid", {}, root);
    const leaf = issueCertificate({ commonName: "joe" }, mid);
    expect((await authenticator.authenticate(request(leaf, mid)))?.user.name).toBe("joe");
  });

  it("reads the uid from the subject attribute 1.3.6.1.4.1.57683.2", async () => {
    const leaf = issueCertificate({ commonName: "jane", attributes: [[uidAttribute, printable("uid-7")]] }, root);
    expect((await authenticator.authenticate(request(leaf)))?.user.uid).toBe("uid-7");
    const twice = issueCertificate(
      {
        commonName: "jane",
        attributes: [
          [uidAttribute, printable("a")],
          [uidAttribute, printable("b")],
        ],
      },
      root,
    );
    await expect(authenticator.authenticate(request(twice))).rejects.toThrow(
      "expected 1 UID, but found multiple: [a b]",
    );
    const empty = issueCertificate({ commonName: "jane", attributes: [[uidAttribute, printable("")]] }, root);
    await expect(authenticator.authenticate(request(empty))).rejects.toThrow("UID cannot be an empty string");
  });

  it("has no opinion on a verified certificate without a CN", async () => {
    expect(
      await authenticator.authenticate(request(issueCertificate({ organizations: ["dev"] }, root))),
    ).toBeUndefined();
  });

  it("fails on a certificate that does not verify, naming it as kube does", async () => {
    const stranger = issueCertificate({ commonName: "mallory" }, issueCa("elsewhere"));
    const failure = authenticator.authenticate(request(stranger));
    await expect(failure).rejects.toBeInstanceOf(AuthenticationError);
    await expect(failure).rejects.toThrow(
      `verifying certificate ${certificateIdentifier(stranger.x509)} failed: x509: certificate signed by unknown authority`,
    );
  });

  it("checks the validity period against its clock", async () => {
    const leaf = issueCertificate({ commonName: "jane" }, root);
    const later = new ClientCertificateAuthenticator(
      new CertificatePool([root.x509]),
      true,
      () => new Date(Date.now() + 72 * 3_600_000),
    );
    await expect(later.authenticate(request(leaf))).rejects.toThrow(/certificate has expired or is not yet valid/);
  });
});
