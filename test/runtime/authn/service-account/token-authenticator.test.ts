import { createPublicKey, generateKeyPairSync, type KeyObject } from "node:crypto";
import { CompactSign } from "jose";
import { afterEach, describe, expect, it } from "vitest";
import { legacyIssuer } from "../../../../runtime/authn/service-account/claims.js";
import { invalidSinceLabel, lastUsedLabel } from "../../../../runtime/authn/service-account/legacy-token-validator.js";
import { keyId } from "../../../../runtime/authn/service-account/signing-keys.js";
import type {
  ServiceAccountTokenIssuerOptions,
  TokenSubject,
} from "../../../../runtime/authn/service-account/token-issuer.js";
import type { KubeObject } from "../../../../runtime/object/kube-object.js";
import {
  type Fixture,
  issuerUrl,
  namespace,
  payloadOf,
  pod,
  refusal,
  serviceAccount,
  startFixture,
  uidOf,
} from "./fixture.js";

let fixture: Fixture;
afterEach(() => fixture?.close());

async function withAccount(name = "builder"): Promise<{ account: KubeObject; subject: TokenSubject }> {
  const account = await fixture.create("serviceaccounts", serviceAccount(name));
  return { account, subject: { serviceAccount: { namespace, name, uid: uidOf(account) } } };
}

interface TokenOptions {
  audiences?: string[];
  expirationSeconds?: number;
  issuer?: Partial<ServiceAccountTokenIssuerOptions>;
}

async function tokenFor(subject: TokenSubject, options: TokenOptions = {}): Promise<string> {
  const { audiences = [issuerUrl], expirationSeconds = 3600 } = options;
  return (await fixture.issuer(options.issuer).issue({ ...subject, audiences, expirationSeconds })).token;
}

const minute = 60_000;

function later(ms: number): void {
  fixture.clock.now = new Date(fixture.clock.now.getTime() + ms);
}

describe("ServiceAccountTokenAuthenticator: bound tokens", () => {
  it("authenticates the account with its groups, uid and credential id", async () => {
    fixture = startFixture();
    const { account, subject } = await withAccount();
    const token = await tokenFor(subject);
    const result = await fixture.authenticator().authenticateToken(token);
    const jti = payloadOf(token).jti;
    expect(result).toEqual({
      user: {
        name: "system:serviceaccount:default:builder",
        groups: ["system:serviceaccounts", "system:serviceaccounts:default"],
        uid: uidOf(account),
        extra: { "authentication.kubernetes.io/credential-id": [`JTI=${jti}`] },
      },
      audiences: [issuerUrl],
    });
  });

  it("leaves tokens of other issuers and non-JWTs to other authenticators", async () => {
    fixture = startFixture();
    const { subject } = await withAccount();
    const foreign = await tokenFor(subject, { issuer: { issuers: ["https://elsewhere"] } });
    const authenticator = fixture.authenticator();
    expect(await authenticator.authenticateToken(foreign)).toBeUndefined();
    expect(await authenticator.authenticateToken("abcdef.0123456789abcdef")).toBeUndefined();
    expect(await authenticator.authenticateToken('{"iss":"x"}.a.b')).toBeUndefined();
  });

  it("accepts every listed issuer", async () => {
    fixture = startFixture();
    const { subject } = await withAccount();
    const old = await tokenFor(subject, { issuer: { issuers: ["https://old.example"] } });
    const authenticator = fixture.authenticator({ issuers: [issuerUrl, "https://old.example"] });
    expect((await authenticator.authenticateToken(old))?.user.name).toBe("system:serviceaccount:default:builder");
  });

  it("refuses expired tokens and tokens not valid yet, with a minute's leeway", async () => {
    fixture = startFixture();
    fixture.clock.now = new Date("2026-01-01T00:00:00Z");
    const { subject } = await withAccount();
    const token = await tokenFor(subject, { expirationSeconds: 600 });
    const authenticator = fixture.authenticator();
    later(600_000 + minute);
    expect(await authenticator.authenticateToken(token)).toBeDefined();
    later(1000);
    expect(await refusal(authenticator.authenticateToken(token))).toBe("service account token has expired");
    fixture.clock.now = new Date(fixture.clock.now.getTime() - 600_000 - 3 * minute);
    expect(await refusal(authenticator.authenticateToken(token))).toBe("service account token is not valid yet");
  });

  it("checks audiences: the API audiences by default, the caller's when named", async () => {
    fixture = startFixture();
    const { subject } = await withAccount();
    const vault = await tokenFor(subject, { audiences: ["vault", "other"] });
    const authenticator = fixture.authenticator();
    expect(await refusal(authenticator.authenticateToken(vault))).toBe(
      `token audiences ["vault" "other"] is invalid for the target audiences ["${issuerUrl}"]`,
    );
    expect((await authenticator.authenticateToken(vault, ["other", "vault"]))?.audiences).toEqual(["other", "vault"]);
    const api = await tokenFor(subject);
    expect(await refusal(authenticator.authenticateToken(api, ["vault"]))).toBe(
      `token audiences ["${issuerUrl}"] is invalid for the target audiences ["vault"]`,
    );
  });

  it("is revoked when the account is deleted, or recreated with another uid", async () => {
    fixture = startFixture();
    const { subject } = await withAccount();
    const token = await tokenFor(subject);
    const authenticator = fixture.authenticator();
    await fixture.remove("serviceaccounts", "builder");
    expect(await refusal(authenticator.authenticateToken(token))).toBe('serviceaccounts "builder" not found');
    const again = await fixture.create("serviceaccounts", serviceAccount("builder"));
    expect(await refusal(authenticator.authenticateToken(token))).toBe(
      `service account UID (${uidOf(again)}) does not match claim (${subject.serviceAccount.uid})`,
    );
  });

  it("is revoked with lookup off too: bound tokens always look their objects up, as in kube", async () => {
    fixture = startFixture();
    const { subject } = await withAccount();
    const token = await tokenFor(subject);
    await fixture.remove("serviceaccounts", "builder");
    const authenticator = fixture.authenticator({ lookup: false });
    expect(await refusal(authenticator.authenticateToken(token))).toBe('serviceaccounts "builder" not found');
  });

  it("reports the bound pod and its node, and is revoked when the pod goes", async () => {
    fixture = startFixture();
    const { subject } = await withAccount();
    const web = await fixture.create("pods", pod("web", "builder"));
    const token = await tokenFor({
      ...subject,
      pod: { name: "web", uid: uidOf(web) },
      node: { name: "n1", uid: "n1-uid" },
    });
    const authenticator = fixture.authenticator();
    const extra = (await authenticator.authenticateToken(token))?.user.extra ?? {};
    expect(extra).toMatchObject({
      "authentication.kubernetes.io/pod-name": ["web"],
      "authentication.kubernetes.io/pod-uid": [uidOf(web)],
      "authentication.kubernetes.io/node-name": ["n1"],
      "authentication.kubernetes.io/node-uid": ["n1-uid"],
    });
    expect(Object.keys(extra)).toEqual([
      "authentication.kubernetes.io/pod-name",
      "authentication.kubernetes.io/pod-uid",
      "authentication.kubernetes.io/credential-id",
      "authentication.kubernetes.io/node-name",
      "authentication.kubernetes.io/node-uid",
    ]);
    await fixture.remove("pods", "web");
    expect(await refusal(authenticator.authenticateToken(token))).toBe("service account token has been invalidated");
    const replaced = await fixture.create("pods", pod("web", "builder"));
    expect(await refusal(authenticator.authenticateToken(token))).toBe(
      `pod UID (${uidOf(replaced)}) does not match service account pod ref claim (${uidOf(web)})`,
    );
  });

  it("stays valid a minute into a graceful pod deletion", async () => {
    fixture = startFixture();
    const { subject } = await withAccount();
    const web = await fixture.create("pods", pod("web", "builder", "n1"));
    const token = await tokenFor({ ...subject, pod: { name: "web", uid: uidOf(web) } });
    await fixture.remove("pods", "web", { gracePeriodSeconds: 30 });
    const authenticator = fixture.authenticator();
    const deletion = Date.parse(
      ((await fixture.get("pods", "web")).metadata as { deletionTimestamp: string }).deletionTimestamp,
    );
    fixture.clock.now = new Date(deletion + minute);
    expect(await authenticator.authenticateToken(token)).toBeDefined();
    fixture.clock.now = new Date(deletion + minute + 1000);
    expect(await refusal(authenticator.authenticateToken(token))).toBe("service account token has been invalidated");
  });

  it("checks a bound secret and a bound node", async () => {
    fixture = startFixture();
    const { subject } = await withAccount();
    const secret = await fixture.create("secrets", { metadata: { name: "s" } });
    const node = await fixture.create("nodes", { metadata: { name: "n1" } });
    const authenticator = fixture.authenticator();
    const secretToken = await tokenFor({ ...subject, secret: { name: "s", uid: uidOf(secret) } });
    const nodeToken = await tokenFor({ ...subject, node: { name: "n1", uid: uidOf(node) } });
    expect((await authenticator.authenticateToken(nodeToken))?.user.extra).toMatchObject({
      "authentication.kubernetes.io/node-name": ["n1"],
      "authentication.kubernetes.io/node-uid": [uidOf(node)],
    });
    expect(await authenticator.authenticateToken(secretToken)).toBeDefined();
    await fixture.remove("secrets", "s");
    await fixture.remove("nodes", "n1");
    expect(await refusal(authenticator.authenticateToken(secretToken))).toBe(
      "service account token has been invalidated",
    );
    expect(await refusal(authenticator.authenticateToken(nodeToken))).toBe(
      "service account token has been invalidated",
    );
  });

  it("verifies RSA and ECDSA tokens with every configured key, public keys alone sufficing", async () => {
    fixture = startFixture();
    const { subject } = await withAccount();
    const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey;
    const ecdsa = await tokenFor(subject);
    const rsaToken = await tokenFor(subject, { issuer: { signingKey: rsa } });
    const keys: KeyObject[] = [createPublicKey(rsa), createPublicKey(fixture.key)];
    const authenticator = fixture.authenticator({ keys });
    expect(await authenticator.authenticateToken(ecdsa)).toBeDefined();
    expect(await authenticator.authenticateToken(rsaToken)).toBeDefined();
    const ecdsaOnly = fixture.authenticator({ keys: [fixture.key] });
    expect(await refusal(ecdsaOnly.authenticateToken(rsaToken))).toBe("invalid signature, no keys found");
  });

  it("tries every key when the token names none, and reports a bad signature", async () => {
    fixture = startFixture();
    const { subject } = await withAccount();
    const claims = (await fixture.issuer().issue({ ...subject, audiences: [issuerUrl], expirationSeconds: 3600 }))
      .claims;
    const sign = (key: KeyObject) =>
      new CompactSign(new TextEncoder().encode(JSON.stringify(claims))).setProtectedHeader({ alg: "ES256" }).sign(key);
    const other = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey;
    const authenticator = fixture.authenticator({ keys: [other, fixture.key] });
    expect(await authenticator.authenticateToken(await sign(fixture.key))).toBeDefined();
    const stranger = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey;
    expect(await refusal(authenticator.authenticateToken(await sign(stranger)))).toBe(
      "go-jose/go-jose: error in cryptographic primitive",
    );
    expect(keyId(other)).not.toBe(keyId(fixture.key));
  });
});

describe("ServiceAccountTokenAuthenticator: legacy tokens", () => {
  async function legacyToken(account: KubeObject, secretName: string): Promise<string> {
    const name = (account.metadata as { name: string }).name;
    const claims = {
      iss: legacyIssuer,
      "kubernetes.io/serviceaccount/namespace": namespace,
      "kubernetes.io/serviceaccount/secret.name": secretName,
      "kubernetes.io/serviceaccount/service-account.name": name,
      "kubernetes.io/serviceaccount/service-account.uid": uidOf(account),
      sub: `system:serviceaccount:${namespace}:${name}`,
    };
    return new CompactSign(new TextEncoder().encode(JSON.stringify(claims)))
      .setProtectedHeader({ alg: "ES256", kid: keyId(fixture.key) })
      .sign(fixture.key);
  }

  async function tokenSecret(name: string, token: string, labels: Record<string, string> = {}): Promise<KubeObject> {
    return fixture.create("secrets", {
      metadata: { name, labels, annotations: { "kubernetes.io/service-account.name": "builder" } },
      type: "kubernetes.io/service-account-token",
      data: { token: Buffer.from(token).toString("base64") },
    });
  }

  it("authenticates a token its Secret holds and records the day of use", async () => {
    fixture = startFixture();
    fixture.clock.now = new Date("2026-05-06T07:08:09Z");
    const { account } = await withAccount();
    const token = await legacyToken(account, "builder-token");
    await tokenSecret("builder-token", token);
    const result = await fixture.authenticator().authenticateToken(token);
    expect(result).toEqual({
      user: {
        name: "system:serviceaccount:default:builder",
        groups: ["system:serviceaccounts", "system:serviceaccounts:default"],
        uid: uidOf(account),
      },
      audiences: [issuerUrl],
    });
    const secret = await fixture.get("secrets", "builder-token");
    expect((secret.metadata as { labels: Record<string, string> }).labels[lastUsedLabel]).toBe("2026-05-06");
  });

  it("is revoked with its account or Secret when lookup is on, and not when it is off", async () => {
    fixture = startFixture();
    const { account } = await withAccount();
    const token = await legacyToken(account, "builder-token");
    await tokenSecret("builder-token", token);
    await fixture.remove("serviceaccounts", "builder");
    expect(await refusal(fixture.authenticator().authenticateToken(token))).toBe('serviceaccounts "builder" not found');
    expect((await fixture.authenticator({ lookup: false }).authenticateToken(token))?.user.uid).toBe(uidOf(account));
    await fixture.remove("secrets", "builder-token");
    expect(await refusal(fixture.authenticator().authenticateToken(token))).toBe("Token has been invalidated");
  });

  it("refuses a token its Secret no longer holds, or one marked invalid", async () => {
    fixture = startFixture();
    const { account } = await withAccount();
    const token = await legacyToken(account, "builder-token");
    await tokenSecret("builder-token", "something else");
    expect(await refusal(fixture.authenticator().authenticateToken(token))).toBe("Token does not match server's copy");
    const marked = await legacyToken(account, "marked");
    await tokenSecret("marked", marked, { [invalidSinceLabel]: "2026-01-01" });
    expect(await refusal(fixture.authenticator().authenticateToken(marked))).toBe(
      "the token in secret default/marked for service account default/builder has been marked invalid. Use tokens from the TokenRequest API or manually created secret-based tokens, or remove the 'kubernetes.io/legacy-token-invalid-since' label from the secret to temporarily allow use of this token",
    );
  });

  it("needs every claim and a subject that agrees with them", async () => {
    fixture = startFixture();
    const sign = (claims: Record<string, unknown>) =>
      new CompactSign(new TextEncoder().encode(JSON.stringify({ iss: legacyIssuer, ...claims })))
        .setProtectedHeader({ alg: "ES256" })
        .sign(fixture.key);
    const authenticator = fixture.authenticator({ lookup: false });
    expect(await refusal(authenticator.authenticateToken(await sign({})))).toBe("sub claim is missing");
    const claims = {
      sub: "system:serviceaccount:default:other",
      "kubernetes.io/serviceaccount/namespace": "default",
      "kubernetes.io/serviceaccount/secret.name": "s",
      "kubernetes.io/serviceaccount/service-account.name": "builder",
      "kubernetes.io/serviceaccount/service-account.uid": "u",
    };
    expect(
      await refusal(
        authenticator.authenticateToken(await sign({ ...claims, "kubernetes.io/serviceaccount/secret.name": "" })),
      ),
    ).toBe("secretName claim is missing");
    expect(await refusal(authenticator.authenticateToken(await sign(claims)))).toBe("sub claim is invalid");
  });
});
