import { generateKeyPairSync } from "node:crypto";
import { compactVerify } from "jose";
import { afterEach, describe, expect, it } from "vitest";
import { keyId } from "../../../../runtime/authn/service-account/signing-keys.js";
import { ServiceAccountTokenIssuer } from "../../../../runtime/authn/service-account/token-issuer.js";
import { type Fixture, headerOf, issuerUrl, payloadOf, startFixture } from "./fixture.js";

let fixture: Fixture;
afterEach(() => fixture?.close());

const account = { namespace: "default", name: "builder", uid: "sa-uid" };

describe("ServiceAccountTokenIssuer", () => {
  it("signs kube's claims with the first issuer, keys sorted as kube writes them", async () => {
    fixture = startFixture();
    fixture.clock.now = new Date("2026-03-04T05:06:07.890Z");
    const issuer = fixture.issuer({ issuers: [issuerUrl, "https://other.example"] });
    const { token, claims } = await issuer.issue({
      serviceAccount: account,
      audiences: ["api"],
      expirationSeconds: 600,
    });
    const iat = Date.parse("2026-03-04T05:06:07Z") / 1000;
    expect(headerOf(token)).toEqual({ alg: "ES256", kid: keyId(fixture.key) });
    expect(Object.keys(headerOf(token))).toEqual(["alg", "kid"]);
    const payload = payloadOf(token);
    expect(payload).toEqual(claims);
    expect(Object.keys(payload)).toEqual(["aud", "exp", "iat", "iss", "jti", "kubernetes.io", "nbf", "sub"]);
    expect(payload).toMatchObject({
      aud: ["api"],
      exp: iat + 600,
      iat,
      iss: issuerUrl,
      nbf: iat,
      sub: "system:serviceaccount:default:builder",
      "kubernetes.io": { namespace: "default", serviceaccount: { name: "builder", uid: "sa-uid" } },
    });
    expect(payload.jti).toMatch(/^[0-9a-f-]{36}$/);
    const { payload: verified } = await compactVerify(token, issuer.key.publicKey);
    expect(JSON.parse(new TextDecoder().decode(verified))).toEqual(payload);
  });

  it("names what the token is bound to, the pod's node, and when an extended token turns stale", async () => {
    fixture = startFixture();
    const issuer = fixture.issuer();
    const { claims } = await issuer.issue({
      serviceAccount: account,
      pod: { name: "web", uid: "pod-uid" },
      node: { name: "node-1" },
      audiences: [issuerUrl],
      expirationSeconds: 3600,
      warnAfterSeconds: 3607,
    });
    expect(claims["kubernetes.io"]).toEqual({
      namespace: "default",
      node: { name: "node-1" },
      pod: { name: "web", uid: "pod-uid" },
      serviceaccount: { name: "builder", uid: "sa-uid" },
      warnafter: claims.iat + 3607,
    });
    expect(Object.keys(claims["kubernetes.io"])).toEqual(["namespace", "node", "pod", "serviceaccount", "warnafter"]);
  });

  it("signs with RSA keys as RS256 and defaults the API audiences to the issuers", async () => {
    const signingKey = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey;
    const issuer = new ServiceAccountTokenIssuer({ issuers: ["https://a", "https://b"], signingKey });
    expect(issuer.apiAudiences).toEqual(["https://a", "https://b"]);
    expect(issuer.isApiAudiences(["https://b"])).toBe(true);
    expect(issuer.isApiAudiences(["https://b", "vault"])).toBe(false);
    const { token } = await issuer.issue({ serviceAccount: account, audiences: ["https://a"], expirationSeconds: 600 });
    expect(headerOf(token)).toEqual({ alg: "RS256", kid: keyId(signingKey) });
  });

  it("refuses an empty issuer and a public signing key", () => {
    const pair = generateKeyPairSync("ec", { namedCurve: "P-256" });
    expect(() => new ServiceAccountTokenIssuer({ issuers: [], signingKey: pair.privateKey })).toThrow(
      "service-account-issuer should not be an empty string",
    );
    expect(() => new ServiceAccountTokenIssuer({ issuers: [issuerUrl], signingKey: pair.publicKey })).toThrow(
      "must be a private key",
    );
  });
});
