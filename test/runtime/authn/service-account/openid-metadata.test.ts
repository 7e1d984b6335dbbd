import { generateKeyPairSync } from "node:crypto";
import { createLocalJWKSet, jwtVerify } from "jose";
import { afterEach, describe, expect, it } from "vitest";
import { openIDMetadata } from "../../../../runtime/authn/service-account/openid-metadata.js";
import { keyId, verificationKey } from "../../../../runtime/authn/service-account/signing-keys.js";
import { type Fixture, issuerUrl, startFixture } from "./fixture.js";

let fixture: Fixture;
afterEach(() => fixture?.close());

const account = { namespace: "default", name: "builder", uid: "u" };

describe("openIDMetadata", () => {
  it("renders kube's discovery document and a JWK set that verifies the tokens", async () => {
    fixture = startFixture();
    const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey;
    const keys = [verificationKey(fixture.key), verificationKey(rsa)];
    const metadata = await openIDMetadata({ issuer: issuerUrl, externalAddress: "127.0.0.1:6443", keys });
    expect(metadata.configuration).toBe(
      JSON.stringify({
        issuer: issuerUrl,
        jwks_uri: "https://127.0.0.1:6443/openid/v1/jwks",
        response_types_supported: ["id_token"],
        subject_types_supported: ["public"],
        id_token_signing_alg_values_supported: ["ES256", "RS256"],
      }),
    );
    const jwks = JSON.parse(metadata.jwks);
    expect(jwks.keys.map((k: Record<string, unknown>) => Object.keys(k))).toEqual([
      ["use", "kty", "kid", "crv", "alg", "x", "y"],
      ["use", "kty", "kid", "alg", "n", "e"],
    ]);
    expect(jwks.keys[0]).toMatchObject({ use: "sig", kty: "EC", kid: keyId(fixture.key), crv: "P-256", alg: "ES256" });
    expect(jwks.keys[1]).toMatchObject({ kty: "RSA", kid: keyId(rsa), alg: "RS256", e: "AQAB" });

    const keySet = createLocalJWKSet(jwks);
    for (const signingKey of [fixture.key, rsa]) {
      const { token } = await fixture
        .issuer({ signingKey })
        .issue({ serviceAccount: account, audiences: ["vault"], expirationSeconds: 600 });
      const { payload } = await jwtVerify(token, keySet, { issuer: issuerUrl, audience: "vault" });
      expect(payload.sub).toBe("system:serviceaccount:default:builder");
    }
  });

  it("takes --service-account-jwks-uri as given", async () => {
    fixture = startFixture();
    const metadata = await openIDMetadata({
      issuer: issuerUrl,
      jwksUri: "https://keys.example/jwks",
      keys: [verificationKey(fixture.key)],
    });
    expect(JSON.parse(metadata.configuration).jwks_uri).toBe("https://keys.example/jwks");
  });

  it("refuses what kube refuses to serve", async () => {
    fixture = startFixture();
    const keys = [verificationKey(fixture.key)];
    const externalAddress = "127.0.0.1:6443";
    await expect(openIDMetadata({ issuer: "kubernetes/serviceaccount", externalAddress, keys })).rejects.toThrow(
      "issuer URL must use https scheme, got: kubernetes/serviceaccount",
    );
    await expect(openIDMetadata({ issuer: "https://a?b=c", externalAddress, keys })).rejects.toThrow(
      "issuer URL may not include a query, got: https://a?b=c",
    );
    await expect(openIDMetadata({ issuer: issuerUrl, keys })).rejects.toThrow(
      "either the JWKS URI or the default external address, or both, must be set",
    );
    await expect(openIDMetadata({ issuer: issuerUrl, jwksUri: "http://keys", keys })).rejects.toThrow(
      "jwksURI requires https scheme, parsed as: http://keys",
    );
    await expect(openIDMetadata({ issuer: issuerUrl, externalAddress, keys: [] })).rejects.toThrow(
      "no keys provided for validating keyset",
    );
  });
});
