import { mkdtempSync, writeFileSync } from "node:fs";
import type { IncomingHttpHeaders } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  type Authenticated,
  AuthenticationError,
  type AuthenticationRequest,
  type RequestAuthenticator,
  type TokenAuthenticator,
} from "../../../runtime/access/authenticator.js";
import {
  AggregateAuthenticationError,
  AudienceAgnosticTokenAuthenticator,
  buildAuthentication,
  RequestAuthenticatorUnion,
  TokenAuthenticatorUnion,
  withAuthenticatedGroup,
} from "../../../runtime/authn/union-authenticator.js";
import { issueCa } from "./test-certificates.js";

const user = (name: string, groups: string[] = []): Authenticated => ({ user: { name, groups } });
const answering = (answer: Authenticated | undefined | Error): RequestAuthenticator => ({
  authenticate: async () => {
    if (answer instanceof Error) throw answer;
    return answer;
  },
});
const request = (headers: IncomingHttpHeaders = {}, path = "/api"): AuthenticationRequest => ({
  headers,
  path,
  peerCertificates: () => [],
});

function tokens(answers: Record<string, Authenticated>): TokenAuthenticator & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    authenticateToken: async (token) => {
      asked.push(token);
      return answers[token];
    },
  };
}

function tokenFile(content: string): string {
  const path = join(mkdtempSync(join(tmpdir(), "kapi-union-")), "tokens.csv");
  writeFileSync(path, content);
  return path;
}

describe("RequestAuthenticatorUnion", () => {
  it("takes the first success, past errors and authenticators without an opinion", async () => {
    const union = new RequestAuthenticatorUnion([
      answering(undefined),
      answering(new AuthenticationError("bad")),
      answering(user("jane")),
      answering(user("joe")),
    ]);
    expect(await union.authenticate(request())).toEqual(user("jane"));
  });

  it("throws the errors together when nobody succeeds, as Go's aggregate words them", async () => {
    const errors = (...messages: string[]) =>
      new RequestAuthenticatorUnion(messages.map((m) => answering(new AuthenticationError(m)))).authenticate(request());
    await expect(errors("a", "b")).rejects.toThrow(/^\[a, b\]$/);
    await expect(errors("a", "a")).rejects.toThrow(/^a$/);
    await expect(errors("a")).rejects.toThrow(/^a$/);
    const nested = new AggregateAuthenticationError([
      new AggregateAuthenticationError([new Error("x"), new Error("y")]),
      new Error("x"),
    ]);
    expect(nested.message).toBe("[x, y]");
    expect(await new RequestAuthenticatorUnion([answering(undefined)]).authenticate(request())).toBeUndefined();
  });

  it("turns any error into an AuthenticationError (kube answers 401 for all)", async () => {
    const failure = new RequestAuthenticatorUnion([answering(new TypeError("boom"))]).authenticate(request());
    await expect(failure).rejects.toBeInstanceOf(AuthenticationError);
    await expect(failure).rejects.toThrow("boom");
  });

  it("stops at the first error when failing on errors", async () => {
    const union = new RequestAuthenticatorUnion(
      [answering(new AuthenticationError("bad")), answering(user("jane"))],
      true,
    );
    await expect(union.authenticate(request())).rejects.toThrow("bad");
  });
});

describe("TokenAuthenticatorUnion", () => {
  it("asks each in turn with the audiences, the first acceptance wins", async () => {
    const seen: (readonly string[] | undefined)[] = [];
    const union = new TokenAuthenticatorUnion([
      {
        authenticateToken: async (_t, audiences) => {
          seen.push(audiences);
          return undefined;
        },
      },
      { authenticateToken: async () => Promise.reject(new AuthenticationError("expired")) },
      { authenticateToken: async (token) => (token === "good" ? user("jane") : undefined) },
    ]);
    expect(await union.authenticateToken("good", ["api"])).toEqual(user("jane"));
    expect(seen).toEqual([["api"]]);
    await expect(union.authenticateToken("other")).rejects.toThrow(/^expired$/);
  });
});

describe("withAuthenticatedGroup", () => {
  it("adds system:authenticated once, never to anonymous or the unauthenticated", () => {
    expect(withAuthenticatedGroup(user("jane", ["dev"])).user.groups).toEqual(["dev", "system:authenticated"]);
    expect(withAuthenticatedGroup(user("jane", ["system:authenticated"])).user.groups).toEqual([
      "system:authenticated",
    ]);
    expect(withAuthenticatedGroup(user("system:anonymous")).user.groups).toEqual([]);
    expect(withAuthenticatedGroup(user("x", ["system:unauthenticated"])).user.groups).toEqual([
      "system:unauthenticated",
    ]);
  });
});

describe("AudienceAgnosticTokenAuthenticator", () => {
  const inner = tokens({ t: user("jane") });

  it("accepts tokens only for the API audiences, answering with the shared ones", async () => {
    const wrapped = new AudienceAgnosticTokenAuthenticator(["api", "kapi"], inner);
    expect(await wrapped.authenticateToken("t")).toEqual({ ...user("jane"), audiences: ["api", "kapi"] });
    expect(await wrapped.authenticateToken("t", ["kapi", "vault"])).toEqual({ ...user("jane"), audiences: ["kapi"] });
    expect(await wrapped.authenticateToken("t", ["vault"])).toBeUndefined();
  });

  it("checks nothing when the API server has no audiences and none are asked for", async () => {
    const wrapped = new AudienceAgnosticTokenAuthenticator([], inner);
    expect(await wrapped.authenticateToken("t")).toEqual(user("jane"));
    expect(await wrapped.authenticateToken("t", ["vault"])).toBeUndefined();
  });

  it("refuses a wrapped authenticator that answers with audiences", async () => {
    const aware = { authenticateToken: async () => ({ ...user("jane"), audiences: ["x"] }) };
    await expect(new AudienceAgnosticTokenAuthenticator(["api"], aware).authenticateToken("t")).rejects.toThrow(
      'audience agnostic authenticator wrapped an authenticator that returned audiences: ["x"]',
    );
  });
});

describe("buildAuthentication", () => {
  const file = tokenFile('file-token,alice,u1,"dev,ops"\n');
  const bearer = (token: string, extra: IncomingHttpHeaders = {}) =>
    request({ authorization: `Bearer ${token}`, ...extra });

  it("authenticates tokens from the file with system:authenticated, and removes the credential", async () => {
    const { authenticator } = buildAuthentication({ tokenAuthFile: file });
    const req = bearer("file-token");
    expect(await authenticator.authenticate(req)).toEqual({
      user: { name: "alice", uid: "u1", groups: ["dev", "ops", "system:authenticated"] },
    });
    expect(req.headers.authorization).toBeUndefined();
  });

  it("answers a bad token with an error, never anonymous", async () => {
    const { authenticator } = buildAuthentication({ tokenAuthFile: file, anonymous: { enabled: true } });
    await expect(authenticator.authenticate(bearer("nope"))).rejects.toThrow("invalid bearer token");
  });

  it("makes requests without credentials anonymous when on (kube's default), and no one's when off", async () => {
    const anonymous = { user: { name: "system:anonymous", groups: ["system:unauthenticated"] } };
    expect(await buildAuthentication({ tokenAuthFile: file }).authenticator.authenticate(request())).toEqual(anonymous);
    expect(await buildAuthentication({}).authenticator.authenticate(request())).toEqual(anonymous);
    const off = buildAuthentication({ tokenAuthFile: file, anonymous: { enabled: false } });
    expect(await off.authenticator.authenticate(request())).toBeUndefined();
    expect(
      await buildAuthentication({ anonymous: { enabled: false } }).authenticator.authenticate(request()),
    ).toBeUndefined();
    const health = buildAuthentication({
      tokenAuthFile: file,
      anonymous: { enabled: true, conditions: [{ path: "/livez" }] },
    });
    expect(await health.authenticator.authenticate(request({}, "/livez"))).toEqual(anonymous);
    expect(await health.authenticator.authenticate(request({}, "/api"))).toBeUndefined();
  });

  it("slots other token authenticators after the file, wrapping the audience-agnostic ones", async () => {
    const first = tokens({ shared: user("first") });
    const second = tokens({ shared: user("second"), own: user("own") });
    const { authenticator, tokenAuthenticator } = buildAuthentication({
      tokenAuthFile: file,
      apiAudiences: ["api"],
      tokenAuthenticators: [{ authenticator: first, audienceAgnostic: true }, { authenticator: second }],
    });
    expect((await authenticator.authenticate(bearer("shared")))?.user.name).toBe("first");
    expect((await authenticator.authenticate(bearer("own")))?.user.name).toBe("own");
    expect(await tokenAuthenticator.authenticateToken("file-token")).toEqual({
      user: { name: "alice", uid: "u1", groups: ["dev", "ops", "system:authenticated"] },
      audiences: ["api"],
    });
    expect((await tokenAuthenticator.authenticateToken("shared", ["vault"]))?.user.name).toBe("second");
    expect(await tokenAuthenticator.authenticateToken("missing")).toBeUndefined();
  });

  it("keeps the token union's successes for 10 s unless told otherwise", async () => {
    const counted = tokens({ t: user("jane") });
    const cached = buildAuthentication({ tokenAuthenticators: [{ authenticator: counted }] });
    await cached.authenticator.authenticate(bearer("t"));
    await cached.authenticator.authenticate(bearer("t"));
    await cached.authenticator.authenticate(bearer("nope")).catch(() => undefined);
    await cached.authenticator.authenticate(bearer("nope")).catch(() => undefined);
    expect(counted.asked).toEqual(["t", "nope", "nope"]);
    const uncounted = tokens({ t: user("jane") });
    const uncached = buildAuthentication({
      tokenAuthenticators: [{ authenticator: uncounted }],
      tokenCache: { successTtlMs: 0, failureTtlMs: 0 },
    });
    await uncached.authenticator.authenticate(bearer("t"));
    await uncached.authenticator.authenticate(bearer("t"));
    expect(uncounted.asked).toEqual(["t", "t"]);
  });

  it("refuses an answer for audiences the API server does not have", async () => {
    const aware = { authenticateToken: async () => ({ ...user("jane"), audiences: ["other"] }) };
    const { authenticator } = buildAuthentication({
      apiAudiences: ["api"],
      tokenAuthenticators: [{ authenticator: aware }],
    });
    await expect(authenticator.authenticate(bearer("t"))).rejects.toThrow(
      "unable to match the audience: [other] , accepted: [api]",
    );
  });

  it("asks TLS for client certificates only when there are client CAs", () => {
    expect(buildAuthentication({ tokenAuthFile: file }).tlsOptions).toEqual({
      requestCert: false,
      rejectUnauthorized: false,
    });
    const ca = issueCa("kapi-ca");
    expect(buildAuthentication({ clientCaCertificates: ca.cert }).tlsOptions).toEqual({
      requestCert: true,
      rejectUnauthorized: false,
      ca: [ca.cert],
    });
  });

  it("stops the start on a bad token file", () => {
    expect(() => buildAuthentication({ tokenAuthFile: tokenFile("a,b\n") })).toThrow(/must have at least 3 columns/);
  });
});
