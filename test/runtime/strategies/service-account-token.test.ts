// POST serviceaccounts/<name>/token through the service-account strategy's hook, as the hook handler calls
// it: the decoded TokenRequest in, the answered TokenRequest out.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { adminUser } from "../../../runtime/access/user-info.js";
import { BearerTokenAuthenticator } from "../../../runtime/authn/bearer-token.js";
import type { ServiceAccountTokenIssuer } from "../../../runtime/authn/service-account/token-issuer.js";
import { StaticTokenAuthenticator } from "../../../runtime/authn/static-tokens.js";
import { PrivilegedGroupAuthorizer } from "../../../runtime/authz/privileged-groups.js";
import type { KubeObject } from "../../../runtime/object/kube-object.js";
import type { CreateHook, HookRequest } from "../../../runtime/strategies/hook-request.js";
import {
  type Fixture,
  issuerUrl,
  namespace,
  payloadOf,
  pod,
  serviceAccount,
  startFixture,
  uidOf,
} from "../authn/service-account/fixture.js";
import { failure } from "../controllers/controller-harness.js";
import { strategyOf } from "./write-path.js";

const run = promisify(execFile);
const createToken = strategyOf(["", "v1", "ServiceAccount"]).createHooks?.token as CreateHook;

let fixture: Fixture;
afterEach(() => fixture?.close());

function hookRequest(issuer: ServiceAccountTokenIssuer | undefined, name = "builder", dryRun = false): HookRequest {
  const tokens = new StaticTokenAuthenticator([]);
  return {
    user: adminUser,
    namespace,
    name,
    dryRun,
    warn: () => {},
    access: {
      authenticator: new BearerTokenAuthenticator(tokens),
      tokenAuthenticator: tokens,
      authorizer: new PrivilegedGroupAuthorizer(),
      ...(issuer === undefined ? {} : { serviceAccountTokens: issuer }),
    },
    resources: fixture.resources,
  };
}

function tokenRequest(spec: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}): KubeObject {
  return { apiVersion: "authentication.k8s.io/v1", kind: "TokenRequest", metadata, spec };
}

async function setUp(): Promise<{ issuer: ServiceAccountTokenIssuer; account: KubeObject }> {
  fixture = startFixture();
  fixture.clock.now = new Date("2026-02-03T04:05:06.700Z");
  const account = await fixture.create("serviceaccounts", serviceAccount("builder"));
  return { issuer: fixture.issuer(), account };
}

function tokenOf(answer: KubeObject): string {
  return (answer.status as { token: string }).token;
}

describe("serviceaccounts/token", () => {
  it("answers with a token for the account, defaults filled in as kube does", async () => {
    const { issuer, account } = await setUp();
    const answer = await createToken(tokenRequest(), hookRequest(issuer));
    expect(answer).toEqual({
      kind: "TokenRequest",
      apiVersion: "authentication.k8s.io/v1",
      metadata: { name: "builder", namespace, uid: uidOf(account), creationTimestamp: "2026-02-03T04:05:06Z" },
      spec: { audiences: [issuerUrl], expirationSeconds: 3600, boundObjectRef: null },
      status: { token: tokenOf(answer), expirationTimestamp: "2026-02-03T05:05:06Z" },
    });
    const claims = payloadOf(tokenOf(answer));
    expect(claims.exp).toBe(Date.parse("2026-02-03T05:05:06Z") / 1000);
    expect(claims.aud).toEqual([issuerUrl]);
    const user = (await fixture.authenticator().authenticateToken(tokenOf(answer)))?.user;
    expect(user?.name).toBe("system:serviceaccount:default:builder");
    expect(user?.uid).toBe(uidOf(account));
  });

  it("keeps the request's metadata and audiences", async () => {
    const { issuer } = await setUp();
    const answer = await createToken(
      tokenRequest({ audiences: ["vault"], expirationSeconds: 600 }, { labels: { a: "b" }, name: "builder" }),
      hookRequest(issuer),
    );
    expect((answer.metadata as Record<string, unknown>).labels).toEqual({ a: "b" });
    expect(answer.spec).toEqual({ audiences: ["vault"], expirationSeconds: 600, boundObjectRef: null });
    expect(await fixture.authenticator().authenticateToken(tokenOf(answer), ["vault"])).toBeDefined();
  });

  it("is not served without a token signer", async () => {
    await setUp();
    const error = await failure(createToken(tokenRequest(), hookRequest(undefined)));
    expect(error.code).toBe(404);
    expect(error.message).toBe("the server could not find the requested resource");
  });

  it("needs the account", async () => {
    const { issuer } = await setUp();
    const error = await failure(createToken(tokenRequest(), hookRequest(issuer, "missing")));
    expect(error.code).toBe(404);
    expect(error.message).toBe('serviceaccounts "missing" not found');
  });

  it("refuses lifetimes under ten minutes and over 2^32 seconds", async () => {
    const { issuer } = await setUp();
    const short = await failure(createToken(tokenRequest({ expirationSeconds: 599 }), hookRequest(issuer)));
    expect(short.code).toBe(422);
    expect(short.message).toBe(
      'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes',
    );
    const long = await failure(createToken(tokenRequest({ expirationSeconds: 2 ** 32 + 1 }), hookRequest(issuer)));
    expect(long.message).toBe(
      'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 4294967297: may not specify a duration larger than 2^32 seconds',
    );
  });

  it("refuses a body naming another account or namespace, or another uid", async () => {
    const { issuer, account } = await setUp();
    const name = await failure(createToken(tokenRequest({}, { name: "other" }), hookRequest(issuer)));
    expect(name.message).toBe(
      'TokenRequest.authentication.k8s.io "builder" is invalid: metadata.name: Invalid value: "other": must match the service account name if specified',
    );
    const ns = await failure(createToken(tokenRequest({}, { namespace: "kube-system" }), hookRequest(issuer)));
    expect(ns.message).toBe(
      'TokenRequest.authentication.k8s.io "builder" is invalid: metadata.namespace: Invalid value: "kube-system": must match the service account namespace if specified',
    );
    const uid = await failure(createToken(tokenRequest({}, { uid: "stale" }), hookRequest(issuer)));
    expect(uid.code).toBe(409);
    expect(uid.message).toBe(
      `Operation cannot be fulfilled on TokenRequest.authentication.k8s.io "builder": the UID in the token request (stale) does not match the UID of the service account (${uidOf(account)})`,
    );
  });

  it("caps the lifetime at --service-account-max-token-expiration", async () => {
    await setUp();
    const issuer = fixture.issuer({ maxTokenExpirationSeconds: 7200 });
    const answer = await createToken(tokenRequest({ expirationSeconds: 86400 }), hookRequest(issuer));
    expect((answer.spec as { expirationSeconds: number }).expirationSeconds).toBe(7200);
    const claims = payloadOf(tokenOf(answer));
    expect((claims.exp as number) - (claims.iat as number)).toBe(7200);
  });

  it("binds to a pod of the account, naming the pod's node", async () => {
    const { issuer } = await setUp();
    const node = await fixture.create("nodes", { metadata: { name: "n1" } });
    const web = await fixture.create("pods", pod("web", "builder", "n1"));
    const ref = { kind: "Pod", apiVersion: "v1", name: "web" };
    const answer = await createToken(tokenRequest({ boundObjectRef: ref }), hookRequest(issuer));
    expect((answer.spec as { boundObjectRef: unknown }).boundObjectRef).toEqual(ref);
    expect(payloadOf(tokenOf(answer))["kubernetes.io"]).toMatchObject({
      pod: { name: "web", uid: uidOf(web) },
      node: { name: "n1", uid: uidOf(node) },
    });
    const extra = (await fixture.authenticator().authenticateToken(tokenOf(answer)))?.user.extra;
    expect(extra).toMatchObject({
      "authentication.kubernetes.io/pod-name": ["web"],
      "authentication.kubernetes.io/node-name": ["n1"],
      "authentication.kubernetes.io/node-uid": [uidOf(node)],
    });
    await fixture.remove("pods", "web", { gracePeriodSeconds: 0 });
    await expect(fixture.authenticator().authenticateToken(tokenOf(answer))).rejects.toThrow(
      "service account token has been invalidated",
    );
  });

  it("names only the node's name when the pod's Node object is missing", async () => {
    const { issuer } = await setUp();
    await fixture.create("pods", pod("web", "builder", "gone"));
    const ref = { kind: "Pod", apiVersion: "v1", name: "web" };
    const answer = await createToken(tokenRequest({ boundObjectRef: ref }), hookRequest(issuer));
    expect(payloadOf(tokenOf(answer))["kubernetes.io"]).toMatchObject({ node: { name: "gone" } });
  });

  it("refuses pods of other accounts, missing objects, unknown kinds and stale uids", async () => {
    const { issuer } = await setUp();
    const web = await fixture.create("pods", pod("web", "other"));
    const request = (ref: Record<string, unknown>) =>
      createToken(tokenRequest({ boundObjectRef: ref }), hookRequest(issuer));
    const otherAccount = await failure(request({ kind: "Pod", apiVersion: "v1", name: "web" }));
    expect(otherAccount.code).toBe(400);
    expect(otherAccount.message).toBe(
      'cannot bind token for serviceaccount "builder" to pod running with different serviceaccount name.',
    );
    const missing = await failure(request({ kind: "Secret", apiVersion: "v1", name: "nope" }));
    expect(missing.code).toBe(404);
    expect(missing.message).toBe('secrets "nope" not found');
    const unnamed = await failure(request({ kind: "Node", apiVersion: "v1" }));
    expect(unnamed.message).toBe("Name parameter required.");
    const kind = await failure(request({ kind: "Deployment", apiVersion: "apps/v1", name: "d" }));
    expect(kind.code).toBe(400);
    expect(kind.message).toBe("cannot bind token to object of type apps/v1, Kind=Deployment");

    await fixture.create("pods", pod("mine", "builder"));
    const stale = await failure(request({ kind: "Pod", apiVersion: "v1", name: "mine", uid: uidOf(web) }));
    expect(stale.code).toBe(409);
    expect(stale.message).toBe(
      `Operation cannot be fulfilled on Pod "mine": the UID in the bound object reference (${uidOf(web)}) does not match the UID in record. The object might have been deleted and then recreated`,
    );
  });

  it("binds to a secret and to a node", async () => {
    const { issuer } = await setUp();
    const secret = await fixture.create("secrets", { metadata: { name: "s" } });
    const node = await fixture.create("nodes", { metadata: { name: "n1" } });
    const toSecret = await createToken(
      tokenRequest({ boundObjectRef: { kind: "Secret", apiVersion: "v1", name: "s", uid: uidOf(secret) } }),
      hookRequest(issuer),
    );
    expect(payloadOf(tokenOf(toSecret))["kubernetes.io"]).toMatchObject({ secret: { name: "s", uid: uidOf(secret) } });
    const toNode = await createToken(
      tokenRequest({ boundObjectRef: { kind: "Node", apiVersion: "v1", name: "n1" } }),
      hookRequest(issuer),
    );
    expect(payloadOf(tokenOf(toNode))["kubernetes.io"]).toMatchObject({ node: { name: "n1", uid: uidOf(node) } });
  });

  it("extends kubelet's pod-bound projected tokens to a year, warning after the asked lifetime", async () => {
    const { issuer } = await setUp();
    await fixture.create("pods", pod("web", "builder"));
    const spec = { expirationSeconds: 3607, boundObjectRef: { kind: "Pod", apiVersion: "v1", name: "web" } };
    const answer = await createToken(tokenRequest(spec), hookRequest(issuer));
    const claims = payloadOf(tokenOf(answer));
    const iat = claims.iat as number;
    expect(claims.exp).toBe(iat + 365 * 24 * 3600);
    expect((claims["kubernetes.io"] as { warnafter: number }).warnafter).toBe(iat + 3607);
    expect(answer.spec).toMatchObject({ expirationSeconds: 3607 });
    expect((answer.status as { expirationTimestamp: string }).expirationTimestamp).toBe("2026-02-03T05:05:13Z");

    const elsewhere = await createToken(tokenRequest({ ...spec, audiences: ["vault"] }), hookRequest(issuer));
    expect((payloadOf(tokenOf(elsewhere)).exp as number) - iat).toBe(3607);
    const off = await createToken(tokenRequest(spec), hookRequest(fixture.issuer({ extendTokenExpiration: false })));
    expect(payloadOf(tokenOf(off))["kubernetes.io"]).not.toHaveProperty("warnafter");
  });

  it("answers a dry run the same way and stores nothing", async () => {
    const { issuer } = await setUp();
    const answer = await createToken(tokenRequest(), hookRequest(issuer, "builder", true));
    expect(await fixture.authenticator().authenticateToken(tokenOf(answer))).toBeDefined();
    expect(await fixture.list("secrets")).toEqual([]);
  });

  it("loads before the generated strategies table (which imports the strategy) without a cycle", async () => {
    // Node's own ESM loader: vitest's module runner forgives a cycle that Node refuses.
    const script = [
      'const s = await import("./runtime/strategies/service-account.ts");',
      'const { strategies } = await import("./generated/strategies.ts");',
      'process.stdout.write(String(strategies["service-account"] === s.strategy));',
    ].join("\n");
    const { stdout } = await run(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script]);
    expect(stdout).toBe("true");
  }, 60_000);
});
