import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuthenticationError } from "../../../../runtime/access/authenticator.js";
import { parseAuthenticationConfig } from "../../../../runtime/authn/jwt/authentication-config.js";
import { JwtAuthenticator, type JwtAuthenticatorOptions } from "../../../../runtime/authn/jwt/jwt-authenticator.js";
import { JwtAuthenticators } from "../../../../runtime/authn/jwt/jwt-authenticators.js";
import { AudienceAgnosticTokenAuthenticator } from "../../../../runtime/authn/union-authenticator.js";
import { TestIssuer } from "./oidc-issuer.js";

let issuer: TestIssuer;
const opened: { close(): void }[] = [];

beforeAll(async () => {
  issuer = await TestIssuer.start();
  await issuer.addKey("RS256", "rsa-1");
  await issuer.addKey("ES256", "ec-1");
});

afterAll(async () => {
  for (const a of opened) a.close();
  await issuer.close();
});

/** A JWT authenticator for the test issuer; `jwt` is merged over a username-from-sub mapping. */
function jwtConfig(jwt: Record<string, unknown> = {}, issuerFields: Record<string, unknown> = {}) {
  const text = JSON.stringify({
    apiVersion: "apiserver.config.k8s.io/v1",
    kind: "AuthenticationConfiguration",
    jwt: [
      {
        issuer: { url: issuer.url, audiences: ["kapi"], certificateAuthority: issuer.ca, ...issuerFields },
        claimMappings: { username: { claim: "sub", prefix: "oidc:" } },
        ...jwt,
      },
    ],
  });
  const config = parseAuthenticationConfig(text).jwt[0];
  if (config === undefined) throw new Error("no authenticator");
  return config;
}

async function authenticator(
  jwt: Record<string, unknown> = {},
  issuerFields: Record<string, unknown> = {},
  options: JwtAuthenticatorOptions = {},
): Promise<JwtAuthenticator> {
  const a = new JwtAuthenticator(jwtConfig(jwt, issuerFields), options);
  opened.push(a);
  await a.whenReady();
  return a;
}

async function rejection(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AuthenticationError);
    return (error as Error).message;
  }
  throw new Error("expected a rejection");
}

describe("JwtAuthenticator", () => {
  it("authenticates RS256 and ES256 tokens with the username prefix", async () => {
    const a = await authenticator();
    expect(a.healthCheck()).toBeUndefined();
    expect(await a.authenticateToken(await issuer.token("rsa-1"))).toEqual({ user: { name: "oidc:jane", groups: [] } });
    const ec = await a.authenticateToken(await issuer.token("ec-1", { sub: "joe", jti: "abc" }));
    expect(ec).toEqual({
      user: { name: "oidc:joe", groups: [], extra: { "authentication.kubernetes.io/credential-id": ["JTI=abc"] } },
    });
  });

  it("leaves tokens of other issuers and non-JWTs to other authenticators", async () => {
    const a = await authenticator();
    expect(await a.authenticateToken(await issuer.token("rsa-1", { iss: "https://elsewhere" }))).toBeUndefined();
    expect(await a.authenticateToken("not-a-jwt")).toBeUndefined();
    expect(await a.authenticateToken("a.b.c")).toBeUndefined();
  });

  it("refuses a bad signature, an expired token, a missing exp, a future nbf and a wrong audience", async () => {
    const a = await authenticator();
    const good = await issuer.token("rsa-1");
    const [header, payload, signature = ""] = good.split(".");
    const tampered = `${header}.${payload}.${signature.slice(0, -4)}AAAA`;
    expect(await rejection(a.authenticateToken(tampered))).toBe(
      "oidc: verify token: failed to verify signature: failed to verify id token signature",
    );
    expect(await rejection(a.authenticateToken(await issuer.token("rsa-1", { exp: 1_700_000_000 })))).toBe(
      "oidc: verify token: oidc: token is expired (Token Expiry: 2023-11-14 22:13:20 +0000 UTC)",
    );
    expect(await rejection(a.authenticateToken(await issuer.token("rsa-1", { exp: undefined })))).toBe(
      "oidc: verify token: oidc: token is expired (Token Expiry: 0001-01-01 00:00:00 +0000 UTC)",
    );
    const nbf = Math.floor(Date.now() / 1000) + 3600;
    expect(await rejection(a.authenticateToken(await issuer.token("rsa-1", { nbf })))).toMatch(
      /^oidc: verify token: oidc: current time .* before the nbf \(not before\) time: .* \+0000 UTC$/,
    );
    // One minute of leeway for nbf.
    expect(await a.authenticateToken(await issuer.token("rsa-1", { nbf: nbf - 3570 }))).toBeDefined();
    expect(await rejection(a.authenticateToken(await issuer.token("rsa-1", { aud: ["other", "x"] })))).toBe(
      'oidc: verify token: oidc: expected audience "kapi" got ["other" "x"]',
    );
    const hs = `${Buffer.from(JSON.stringify({ alg: "HS256" })).toString("base64url")}.${payload}.${signature}`;
    expect(await rejection(a.authenticateToken(hs))).toBe(
      'oidc: verify token: oidc: id token signed with unsupported algorithm, expected ["ES256" "ES384" "ES512" "PS256" "PS384" "PS512" "RS256" "RS384" "RS512"] got "HS256"',
    );
  });

  it("matches any of several audiences with audienceMatchPolicy MatchAny", async () => {
    const a = await authenticator({}, { audiences: ["a", "b"], audienceMatchPolicy: "MatchAny" });
    expect(await a.authenticateToken(await issuer.token("rsa-1", { aud: ["x", "b"] }))).toBeDefined();
    expect(await rejection(a.authenticateToken(await issuer.token("rsa-1", { aud: "c" })))).toBe(
      'oidc: verify token: oidc: expected audience in ["a" "b"] got ["c"]',
    );
  });

  it("checks required claims and CEL claim validation rules with their messages", async () => {
    const a = await authenticator({
      claimValidationRules: [
        { claim: "hd", requiredValue: "example.com" },
        { expression: "claims.level > 2", message: "level too low" },
      ],
    });
    expect(await a.authenticateToken(await issuer.token("rsa-1", { hd: "example.com", level: 3 }))).toBeDefined();
    expect(await rejection(a.authenticateToken(await issuer.token("rsa-1", { level: 3 })))).toBe(
      "oidc: required claim hd not present in ID token",
    );
    expect(await rejection(a.authenticateToken(await issuer.token("rsa-1", { hd: "x.org", level: 3 })))).toBe(
      "oidc: required claim hd value does not match. Got = x.org, want = example.com",
    );
    expect(await rejection(a.authenticateToken(await issuer.token("rsa-1", { hd: "example.com", level: 1 })))).toBe(
      "oidc: error evaluating claim validation expression: validation expression 'claims.level > 2' failed: level too low",
    );
    expect(await rejection(a.authenticateToken(await issuer.token("rsa-1", { hd: "example.com" })))).toBe(
      "oidc: error evaluating claim validation expression: expression 'claims.level > 2' resulted in error: no such key: level",
    );
  });

  it("maps username, groups, uid and extra with CEL", async () => {
    const a = await authenticator({
      claimValidationRules: [{ expression: "claims.email_verified == true" }],
      claimMappings: {
        username: { expression: "'user:' + claims.email" },
        groups: { expression: "claims.roles.map(r, 'role:' + r)" },
        uid: { expression: "claims.sub" },
        extra: [
          { key: "example.com/tenant", valueExpression: "claims.tenant" },
          { key: "example.com/empty", valueExpression: "['', '']" },
        ],
      },
    });
    const token = await issuer.token("rsa-1", {
      email: "jane@example.com",
      email_verified: true,
      roles: ["admin", "dev"],
      tenant: "blue",
    });
    expect(await a.authenticateToken(token)).toEqual({
      user: {
        name: "user:jane@example.com",
        groups: ["role:admin", "role:dev"],
        uid: "jane",
        extra: { "example.com/tenant": ["blue"] },
      },
    });
    const unverified = await issuer.token("rsa-1", { email: "j@x", email_verified: false, roles: [], tenant: "" });
    expect(await rejection(a.authenticateToken(unverified))).toBe(
      "oidc: error evaluating claim validation expression: validation expression 'claims.email_verified == true' failed: ",
    );
  });

  it("takes groups from a string or an array claim with the prefix, and reports bad claim types", async () => {
    const a = await authenticator({
      claimMappings: { username: { claim: "sub", prefix: "" }, groups: { claim: "groups", prefix: "g:" } },
    });
    expect((await a.authenticateToken(await issuer.token("rsa-1", { groups: "one" })))?.user.groups).toEqual(["g:one"]);
    expect((await a.authenticateToken(await issuer.token("rsa-1", { groups: ["a", "b"] })))?.user).toEqual({
      name: "jane",
      groups: ["g:a", "g:b"],
    });
    expect(await rejection(a.authenticateToken(await issuer.token("rsa-1", { groups: 7 })))).toBe(
      'oidc: parse groups claim "groups": json: cannot unmarshal number into Go value of type string',
    );
    expect(await rejection(a.authenticateToken(await issuer.token("rsa-1", { sub: undefined })))).toBe(
      'oidc: parse username claims "sub": claim not present',
    );
  });

  it("refuses CEL mappings with the wrong result types", async () => {
    const a = await authenticator({
      claimMappings: { username: { expression: "claims.name" }, groups: { expression: "claims.groups" } },
    });
    expect(await rejection(a.authenticateToken(await issuer.token("rsa-1", { name: 5 })))).toBe(
      "oidc: error evaluating username claim expression: username claim expression must return a string",
    );
    expect(await rejection(a.authenticateToken(await issuer.token("rsa-1", { name: "" })))).toBe(
      "oidc: empty username via CEL expression is not allowed",
    );
    expect(await rejection(a.authenticateToken(await issuer.token("rsa-1", { name: "n", groups: [1] })))).toBe(
      "oidc: error evaluating group claim expression: expression must return a string or a list of strings",
    );
    expect((await a.authenticateToken(await issuer.token("rsa-1", { name: "n", groups: null })))?.user.groups).toEqual(
      [],
    );
  });

  it("applies user validation rules to the mapped user", async () => {
    const a = await authenticator({
      userValidationRules: [{ expression: "!user.username.startsWith('oidc:system:')", message: "no system users" }],
    });
    expect(await a.authenticateToken(await issuer.token("rsa-1"))).toBeDefined();
    expect(await rejection(a.authenticateToken(await issuer.token("rsa-1", { sub: "system:admin" })))).toBe(
      "oidc: error evaluating user info validation rule: validation expression '!user.username.startsWith('oidc:system:')' failed: no system users",
    );
  });

  it("requires a true email_verified when the username claim is email", async () => {
    const a = await authenticator({ claimMappings: { username: { claim: "email", prefix: "" } } });
    expect((await a.authenticateToken(await issuer.token("rsa-1", { email: "a@b" })))?.user.name).toBe("a@b");
    const verified = await issuer.token("rsa-1", { email: "a@b", email_verified: true });
    expect((await a.authenticateToken(verified))?.user.name).toBe("a@b");
    const unverified = await issuer.token("rsa-1", { email: "a@b", email_verified: false });
    expect(await rejection(a.authenticateToken(unverified))).toBe("oidc: email not verified");
    const text = await issuer.token("rsa-1", { email: "a@b", email_verified: "true" });
    expect(await rejection(a.authenticateToken(text))).toBe(
      "oidc: parse 'email_verified' claim: json: cannot unmarshal string into Go value of type bool",
    );
  });

  it("fetches the key set once for a rotated key and rate-limits unknown key ids", async () => {
    const a = await authenticator();
    const before = issuer.requests.jwks;
    await issuer.addKey("RS256", "rsa-2");
    const rotated = await issuer.token("rsa-2");
    const [first, second] = await Promise.all([a.authenticateToken(rotated), a.authenticateToken(rotated)]);
    expect(first?.user.name).toBe("oidc:jane");
    expect(second?.user.name).toBe("oidc:jane");
    expect(await a.authenticateToken(rotated)).toBeDefined();
    expect(issuer.requests.jwks).toBe(before + 1);
    // A key id nobody published, right after a refresh: no new request.
    const bogus = await issuer.token("rsa-2", {}, { kid: "nobody" });
    expect(await rejection(a.authenticateToken(bogus))).toBe(
      "oidc: verify token: failed to verify signature: failed to verify id token signature",
    );
    expect(issuer.requests.jwks).toBe(before + 1);
  });

  it("uses discoveryURL and requires the discovery issuer to equal the URL", async () => {
    const discovered = await authenticator({}, { discoveryURL: `${issuer.url}/custom/discovery` });
    expect(discovered.healthCheck()).toBeUndefined();
    expect(await discovered.authenticateToken(await issuer.token("ec-1"))).toBeDefined();

    issuer.discoveryIssuer = "https://someone-else";
    const mismatched = new JwtAuthenticator(jwtConfig(), { retryIntervalMs: 60_000 });
    opened.push(mismatched);
    await new Promise((resolve) => setTimeout(resolve, 200));
    issuer.discoveryIssuer = undefined;
    expect(mismatched.healthCheck()).toBe(
      `oidc: authenticator for issuer "${issuer.url}" is not healthy: oidc: issuer did not match the issuer returned by provider, expected "${issuer.url}" got "https://someone-else"`,
    );
    expect(await rejection(mismatched.authenticateToken(await issuer.token("rsa-1")))).toBe(
      "oidc: authenticator not initialized",
    );
  });

  it("retries discovery until the issuer answers", async () => {
    issuer.discoveryStatus = 503;
    const a = new JwtAuthenticator(jwtConfig(), { retryIntervalMs: 50 });
    opened.push(a);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(a.healthCheck()).toBe(
      `oidc: authenticator for issuer "${issuer.url}" is not healthy: 503 Service Unavailable: {"error":"unavailable"}`,
    );
    issuer.discoveryStatus = 200;
    await a.whenReady();
    expect(a.healthCheck()).toBeUndefined();
  });

  it("does not trust an issuer whose certificate the CA does not sign", async () => {
    const other = await TestIssuer.start();
    try {
      const a = new JwtAuthenticator(jwtConfig({}, { certificateAuthority: other.ca }), { retryIntervalMs: 60_000 });
      opened.push(a);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(a.healthCheck()).toMatch(/is not healthy: Get ".*\/.well-known\/openid-configuration": /);
    } finally {
      await other.close();
    }
  });
});

describe("JwtAuthenticators", () => {
  it("passes tokens to the authenticator of their issuer; kube wraps the set audience-agnostic", async () => {
    const set = new JwtAuthenticators([jwtConfig({}, { url: "https://127.0.0.1:1/other" }), jwtConfig()]);
    opened.push(set);
    const wrapped = new AudienceAgnosticTokenAuthenticator(["https://kubernetes.default.svc"], set);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(set.healthCheck()).toMatch(
      /^oidc: authenticator for issuer "https:\/\/127.0.0.1:1\/other" is not healthy: Get /,
    );
    const token = await issuer.token("rsa-1");
    expect(await wrapped.authenticateToken(token)).toEqual({
      user: { name: "oidc:jane", groups: [] },
      audiences: ["https://kubernetes.default.svc"],
    });
    expect(await wrapped.authenticateToken(token, ["something-else"])).toBeUndefined();
    expect(await set.authenticateToken(await issuer.token("rsa-1", { iss: "https://x" }))).toBeUndefined();
  });

  it("swaps in a new configuration once it is healthy, keeping the old one on failure", async () => {
    const set = new JwtAuthenticators([jwtConfig()], { retireAfterMs: 10 });
    opened.push(set);
    await set.whenReady();
    const token = await issuer.token("rsa-1");
    expect((await set.authenticateToken(token))?.user.name).toBe("oidc:jane");
    await set.update([jwtConfig({ claimMappings: { username: { claim: "sub", prefix: "new:" } } })]);
    expect((await set.authenticateToken(token))?.user.name).toBe("new:jane");
    issuer.discoveryStatus = 500;
    await expect(set.update([jwtConfig()], 300)).rejects.toThrow(/is not healthy: 500 Internal Server Error/);
    issuer.discoveryStatus = 200;
    expect((await set.authenticateToken(token))?.user.name).toBe("new:jane");
  });
});
