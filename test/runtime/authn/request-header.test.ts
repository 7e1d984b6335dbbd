import { mkdtempSync, writeFileSync } from "node:fs";
import type { IncomingHttpHeaders } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AuthenticationError, type AuthenticationRequest } from "../../../runtime/access/authenticator.js";
import { CertificatePool } from "../../../runtime/authn/certificate-pool.js";
import { RequestHeaderAuthenticator } from "../../../runtime/authn/request-header.js";
import { issueCa, issueCertificate, type TestCertificate } from "./test-certificates.js";

const proxyCa = issueCa("front-proxy-ca");
const proxy = issueCertificate({ commonName: "front-proxy-client" }, proxyCa);
const flags = {
  usernameHeaders: ["X-Remote-User", "X-Other-User"],
  uidHeaders: ["X-Remote-Uid"],
  groupHeaders: ["X-Remote-Group"],
  extraHeadersPrefix: ["X-Remote-Extra-"],
};

function request(
  headers: IncomingHttpHeaders,
  cert: TestCertificate | null = proxy,
  distinct?: Record<string, string[]>,
): AuthenticationRequest {
  return {
    headers,
    peerCertificates: () => (cert === null ? [] : [cert.x509]),
    ...(distinct === undefined ? {} : { headersDistinct: distinct }),
  };
}

describe("RequestHeaderAuthenticator", () => {
  const authenticator = new RequestHeaderAuthenticator(new CertificatePool([proxyCa.x509]), flags);

  it("takes the user from the headers of a verified proxy", async () => {
    const headers: IncomingHttpHeaders = {
      "x-remote-user": "",
      "x-other-user": "jane",
      "x-remote-uid": "u-1",
      "x-remote-group": "dev",
      "x-remote-extra-scopes": "read",
      "x-remote-extra-acme.com%2fproject": "p1",
      "x-remote-extra-bad%zz": "kept",
      accept: "application/json",
    };
    expect(await authenticator.authenticate(request(headers))).toEqual({
      user: {
        name: "jane",
        uid: "u-1",
        groups: ["dev"],
        extra: { scopes: ["read"], "acme.com/project": ["p1"], "bad%zz": ["kept"] },
      },
    });
    expect(headers).toEqual({ accept: "application/json" });
  });

  it("keeps repeated header lines apart when the request has Node's headersDistinct", async () => {
    const headers: IncomingHttpHeaders = { "x-remote-user": "jane", "x-remote-group": "a, b, c" };
    const distinct = { "x-remote-user": ["jane"], "x-remote-group": ["a, b", "", "c"], "x-remote-extra-k": ["1", ""] };
    const result = await authenticator.authenticate(request(headers, proxy, distinct));
    expect(result?.user.groups).toEqual(["a, b", "c"]);
    expect(result?.user.extra).toEqual({ k: ["1", ""] });
    expect(distinct).toEqual({});
    expect(headers).toEqual({});
  });

  it("has no opinion without a certificate or without a user name, and leaves the headers then", async () => {
    expect(await authenticator.authenticate(request({ "x-remote-user": "jane" }, null))).toBeUndefined();
    const headers = { "x-remote-group": "dev" };
    expect(await authenticator.authenticate(request(headers))).toBeUndefined();
    expect(headers).toEqual({ "x-remote-group": "dev" });
  });

  it("fails when the certificate is not from the request-header CA", async () => {
    const other = issueCertificate({ commonName: "front-proxy-client" }, issueCa("client-ca"));
    const failure = authenticator.authenticate(request({ "x-remote-user": "jane" }, other));
    await expect(failure).rejects.toBeInstanceOf(AuthenticationError);
    await expect(failure).rejects.toThrow(
      /^verifying certificate SN=.* failed: x509: certificate signed by unknown authority/,
    );
  });

  it("allows only the listed common names when the list is set", async () => {
    const strict = new RequestHeaderAuthenticator(new CertificatePool([proxyCa.x509]), {
      ...flags,
      allowedNames: ["aggregator"],
    });
    await expect(strict.authenticate(request({ "x-remote-user": "jane" }))).rejects.toThrow(
      "x509: subject with cn=front-proxy-client is not in the allowed list",
    );
    const aggregator = issueCertificate({ commonName: "aggregator" }, proxyCa);
    expect((await strict.authenticate(request({ "x-remote-user": "jane" }, aggregator)))?.user.name).toBe("jane");
  });

  it("refuses empty header names, and reads the CA file with kube's errors", () => {
    const pool = new CertificatePool([proxyCa.x509]);
    expect(() => new RequestHeaderAuthenticator(pool, { usernameHeaders: [" "] })).toThrow(
      'empty value in "requestheader-username-headers"',
    );
    const dir = mkdtempSync(join(tmpdir(), "kapi-rh-"));
    writeFileSync(join(dir, "ca.crt"), "");
    expect(() => RequestHeaderAuthenticator.fromOptions({ clientCaFile: join(dir, "ca.crt") })).toThrow(
      `missing content for CA bundle "request-header::${join(dir, "ca.crt")}"`,
    );
    writeFileSync(join(dir, "ca.crt"), proxyCa.cert);
    const loaded = RequestHeaderAuthenticator.fromOptions({ clientCaFile: join(dir, "ca.crt"), ...flags });
    expect(loaded.certificateAuthorities()).toEqual([proxyCa.cert]);
  });
});
