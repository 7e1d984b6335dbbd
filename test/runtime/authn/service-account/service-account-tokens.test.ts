import { createPublicKey, generateKeyPairSync } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  defaultServiceAccountIssuer,
  serviceAccountTokens,
  validateServiceAccountOptions,
} from "../../../../runtime/authn/service-account/service-account-tokens.js";
import { keyId } from "../../../../runtime/authn/service-account/signing-keys.js";
import { type Fixture, serviceAccount, startFixture, uidOf } from "./fixture.js";

let fixture: Fixture;
let dir: string | undefined;
afterEach(() => {
  fixture?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe("serviceAccountTokens", () => {
  it("works out of the box: the default issuer and audiences, the given key signing and verifying", async () => {
    fixture = startFixture();
    const { issuer, authenticator, keys } = serviceAccountTokens(
      {},
      { resources: fixture.resources, signingKey: fixture.key },
    );
    expect(issuer.issuer).toBe(defaultServiceAccountIssuer);
    expect(issuer.apiAudiences).toEqual([defaultServiceAccountIssuer]);
    expect(issuer.maxTokenExpirationSeconds).toBe(0);
    expect(issuer.extendTokenExpiration).toBe(true);
    expect(keys.map((k) => k.keyId)).toEqual([keyId(fixture.key)]);
    const account = await fixture.create("serviceaccounts", serviceAccount("default"));
    const { token } = await issuer.issue({
      serviceAccount: { namespace: "default", name: "default", uid: uidOf(account) },
      audiences: issuer.apiAudiences,
      expirationSeconds: 3600,
    });
    expect((await authenticator.authenticateToken(token))?.user.name).toBe("system:serviceaccount:default:default");
  });

  it("reads the signing key file and adds every key file's keys", () => {
    fixture = startFixture();
    dir = mkdtempSync(join(tmpdir(), "kapi-sa-options-"));
    const signing = generateKeyPairSync("ec", { namedCurve: "P-384" }).privateKey;
    const old = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey;
    const signingFile = join(dir, "sa.key");
    const keyFile = join(dir, "sa.pub");
    writeFileSync(signingFile, signing.export({ type: "sec1", format: "pem" }));
    writeFileSync(
      keyFile,
      [createPublicKey(signing), createPublicKey(old)].map((k) => k.export({ type: "spki", format: "pem" })).join(""),
    );
    const { issuer, keys } = serviceAccountTokens(
      {
        serviceAccountIssuer: ["https://issuer.example", "https://old.example"],
        serviceAccountSigningKeyFile: signingFile,
        serviceAccountKeyFile: [keyFile],
        serviceAccountMaxTokenExpiration: 7200,
        serviceAccountExtendTokenExpiration: false,
        apiAudiences: ["api"],
      },
      { resources: fixture.resources },
    );
    expect(issuer.issuer).toBe("https://issuer.example");
    expect(issuer.key.algorithm).toBe("ES384");
    expect(issuer.apiAudiences).toEqual(["api"]);
    expect(issuer.maxTokenExpirationSeconds).toBe(7200);
    expect(issuer.extendTokenExpiration).toBe(false);
    expect(keys.map((k) => k.keyId)).toEqual([keyId(signing), keyId(old)]);
  });

  it("needs a signing key", () => {
    fixture = startFixture();
    expect(() => serviceAccountTokens({}, { resources: fixture.resources })).toThrow(
      "--service-account-signing-key-file is required",
    );
  });
});

describe("validateServiceAccountOptions", () => {
  it("words problems as kube-apiserver does", () => {
    expect(
      validateServiceAccountOptions({
        serviceAccountIssuer: ["", "https://a", "https://a", "http://[::1"],
        serviceAccountMaxTokenExpiration: 60,
        serviceAccountJwksUri: "http://keys",
      }),
    ).toEqual([
      "service-account-issuer should not be an empty string",
      'service-account-issuer "https://a" is already specified',
      `service-account-issuer "http://[::1" contained a ':' but was not a valid URL`,
      "the service-account-max-token-expiration must be between 1 hour and 2^32 seconds",
      "service-account-jwks-uri requires https scheme, parsed as: http://keys",
    ]);
    expect(validateServiceAccountOptions({ serviceAccountIssuer: ["kubernetes/serviceaccount"] })).toEqual([]);
  });
});
