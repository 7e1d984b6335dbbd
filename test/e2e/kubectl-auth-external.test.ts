// Authentication and authorization by parties outside the server, end to end with kubectl: a local OIDC
// issuer behind an AuthenticationConfiguration, a local authorization webhook behind an
// AuthorizationConfiguration (its answers, its cache, its match conditions, its failure policy, the file
// reloaded while the server runs), and an exec credential plugin used by kubectl and by kapi's own client.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { parse, stringify } from "yaml";
import { startServer } from "../../runtime/index.js";
import { ClientCredentials } from "../../sdk/credentials.js";
import { loadKubeconfig } from "../../sdk/kubeconfig.js";
import { requestJson } from "../../sdk/request.js";
import { TestIssuer } from "../runtime/authn/jwt/oidc-issuer.js";
import {
  type RecordedRequest,
  type Reply,
  startWebhookServer,
  type WebhookServer,
  writeWebhookKubeconfig,
} from "../runtime/http/webhook-server.js";
import { type ExecPluginFixture, writeExecPlugin } from "../sdk/exec-plugin-fixture.js";
import { type KubectlResult, type KubectlUser, kubectlFor, kubectlUser } from "./kubectl-auth-users.js";
import { haveKubectl, type KubectlSession, startKubectlSession } from "./kubectl-session.js";

const unauthorized = "error: You must be logged in to the server (Unauthorized)";

function caOf(session: KubectlSession): string {
  return loadKubeconfig({ text: session.server.kubeconfig }).cluster.certificateAuthorityData ?? "";
}

interface UserInfoJson {
  username?: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

function whoamiUser(outcome: KubectlResult): UserInfoJson {
  expect(outcome.stderr).toBe("");
  return (JSON.parse(outcome.stdout) as { status: { userInfo: UserInfoJson } }).status.userInfo;
}

// ---- the OIDC issuer ----

function authenticationConfiguration(issuer: TestIssuer): string {
  return stringify({
    apiVersion: "apiserver.config.k8s.io/v1",
    kind: "AuthenticationConfiguration",
    jwt: [
      {
        issuer: { url: issuer.url, certificateAuthority: issuer.ca, audiences: ["kapi"] },
        claimValidationRules: [{ expression: "claims.hd == 'example.com'", message: "hd must be example.com" }],
        claimMappings: {
          username: { claim: "sub", prefix: "oidc:" },
          groups: { claim: "groups", prefix: "" },
          extra: [{ key: "example.com/tenant", valueExpression: "claims.tenant" }],
        },
      },
    ],
  });
}

describe.skipIf(!haveKubectl)("kubectl with id tokens of a local OIDC issuer", () => {
  const dir = mkdtempSync(join(tmpdir(), "kapi-e2e-oidc-"));
  const claims = { hd: "example.com", groups: ["developers", "qa"], tenant: "acme" };
  let issuer: TestIssuer;
  let session: KubectlSession;
  let withToken: KubectlUser["run"];

  beforeAll(async () => {
    issuer = await TestIssuer.start();
    await issuer.addKey("RS256", "k1");
    const config = join(dir, "authentication-config.yaml");
    writeFileSync(config, authenticationConfiguration(issuer));
    session = await startKubectlSession({ controllers: false, authentication: { authenticationConfig: config } });
    withToken = kubectlUser(session, "nobody", {}).run;
    // The authenticator fetches the issuer's keys once the server has started.
    const token = await issuer.token("k1", claims);
    await vi.waitFor(
      async () => {
        if ((await withToken("--token", token, "auth", "whoami")).code !== 0) throw new Error("not authenticated yet");
      },
      { timeout: 5000, interval: 100 },
    );
  });

  afterAll(async () => {
    await session?.close();
    await issuer?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("maps the token's claims to the user kubectl auth whoami shows", async () => {
    const token = await issuer.token("k1", claims);
    expect(whoamiUser(await withToken("--token", token, "auth", "whoami", "-o", "json"))).toEqual({
      username: "oidc:jane",
      groups: ["developers", "qa", "system:authenticated"],
      extra: { "example.com/tenant": ["acme"] },
    });
  });

  it("refuses a token failing the claim validation rule or meant for another audience", async () => {
    const otherDomain = await issuer.token("k1", { ...claims, hd: "example.org" });
    const otherAudience = await issuer.token("k1", { ...claims, aud: "someone-else" });
    for (const token of [otherDomain, otherAudience]) {
      const outcome = await withToken("--token", token, "auth", "whoami");
      expect(outcome.code).toBe(1);
      expect(outcome.stderr).toContain(unauthorized);
    }
  });

  it("answers auth can-i from the roles bound to the mapped user", async () => {
    const token = await issuer.token("k1", claims);
    const canI = (...args: string[]) => withToken("--token", token, "auth", "can-i", ...args, "-n", "default");
    expect(await canI("list", "configmaps")).toMatchObject({ code: 1, stdout: "no\n" });
    await session.kubectl("create", "role", "cm-reader", "--verb=get,list", "--resource=configmaps", "-n", "default");
    await session.kubectl(
      "create",
      "rolebinding",
      "cm-reader",
      "--role=cm-reader",
      "--user=oidc:jane",
      "-n",
      "default",
    );
    await expect
      .poll(async () => (await canI("list", "configmaps")).stdout, { timeout: 5000, interval: 100 })
      .toBe("yes\n");
    expect(await canI("delete", "configmaps")).toMatchObject({ code: 1, stdout: "no\n" });
    expect(await canI("list", "secrets")).toMatchObject({ code: 1, stdout: "no\n" });
  });
});

// ---- the authorization webhook ----

interface SubjectAccessReviewBody {
  apiVersion: string;
  kind: string;
  spec: {
    user?: string;
    uid?: string;
    groups?: string[];
    resourceAttributes?: { namespace?: string; verb?: string; version?: string; resource?: string; name?: string };
  };
}

const wendyDenial = "secrets are off limits for wendy";

function reviewed(status: Record<string, unknown>): Reply {
  return { body: { apiVersion: "authorization.k8s.io/v1", kind: "SubjectAccessReview", status } };
}

/** Allows wendy to get configmaps, denies her secrets, has no opinion on anything else. */
function wendyPolicy(body: unknown): Reply {
  const { spec } = body as SubjectAccessReviewBody;
  const resource = spec.resourceAttributes;
  if (spec.user !== "wendy" || resource === undefined) return reviewed({ allowed: false });
  if (resource.resource === "configmaps" && resource.verb === "get") {
    return reviewed({ allowed: true, reason: "wendy reads configmaps" });
  }
  if (resource.resource === "secrets") return reviewed({ allowed: false, denied: true, reason: wendyDenial });
  return reviewed({ allowed: false });
}

interface WebhookAuthorizer {
  kubeConfigFile: string;
  failurePolicy?: "NoOpinion" | "Deny";
}

function authorizationConfiguration(webhook: WebhookAuthorizer): string {
  return stringify({
    apiVersion: "apiserver.config.k8s.io/v1",
    kind: "AuthorizationConfiguration",
    authorizers: [
      {
        type: "Webhook",
        name: "local",
        webhook: {
          timeout: "3s",
          subjectAccessReviewVersion: "v1",
          matchConditionSubjectAccessReviewVersion: "v1",
          failurePolicy: webhook.failurePolicy ?? "NoOpinion",
          connectionInfo: { type: "KubeConfigFile", kubeConfigFile: webhook.kubeConfigFile },
          matchConditions: [{ expression: "request.user != 'skip-me'" }],
        },
      },
      { type: "RBAC", name: "rbac" },
    ],
  });
}

const tokens = [
  'wendy-token,wendy,wendy-uid,"support,webhook-users"',
  "skip-token,skip-me,skip-uid",
  ...Array.from({ length: 9 }, (_, i) => `token-${i + 1},exec-user,exec-uid,exec-plugin-users`),
  "",
].join("\n");

/** Writes the users' token file (`--token-auth-file`) into `dir`. */
function writeTokenFile(dir: string): string {
  const path = join(dir, "tokens.csv");
  writeFileSync(path, tokens);
  return path;
}

/** A temporary directory with the token file, the webhooks' kubeconfigs and the authorization config. */
class AuthorizationTestbed {
  readonly dir = mkdtempSync(join(tmpdir(), "kapi-e2e-authz-"));
  readonly tokenAuthFile = writeTokenFile(this.dir);
  readonly config = join(this.dir, "authorization-config.yaml");
  readonly webhooks: WebhookServer[] = [];
  readonly logged: string[] = [];
  session!: KubectlSession;

  /** Starts a webhook and returns its kubeconfig's absolute path (each in a directory of its own). */
  async webhook(handler: (body: unknown, request: RecordedRequest) => Reply): Promise<[WebhookServer, string]> {
    const server = await startWebhookServer(handler);
    this.webhooks.push(server);
    const webhookDir = join(this.dir, `webhook-${this.webhooks.length}`);
    mkdirSync(webhookDir);
    return [server, writeWebhookKubeconfig(webhookDir, server)];
  }

  async start(webhook: WebhookAuthorizer): Promise<KubectlSession> {
    writeFileSync(this.config, authorizationConfiguration(webhook));
    this.session = await startKubectlSession({
      controllers: false,
      log: (message, error) => this.logged.push(`${message}: ${String(error)}`),
      authentication: { tokenAuthFile: this.tokenAuthFile },
      authorization: { authorizationConfig: this.config },
    });
    await this.session.kubectl("create", "configmap", "cm1", "-n", "default", "--from-literal=k=v");
    return this.session;
  }

  user(user: string, token: string): KubectlUser {
    return kubectlUser(this.session, user, { token });
  }

  async close(): Promise<void> {
    await this.session?.close();
    await Promise.all(this.webhooks.map((w) => w.close()));
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function reviewsOf(webhook: WebhookServer, user: string, resource?: string, name?: string): SubjectAccessReviewBody[] {
  return webhook.requests
    .map((r) => r.body as SubjectAccessReviewBody)
    .filter(
      (b) =>
        b.spec.user === user &&
        (resource === undefined || b.spec.resourceAttributes?.resource === resource) &&
        (name === undefined || b.spec.resourceAttributes?.name === name),
    );
}

const forbiddenText = (verb: string, resource: string, name: string | undefined, user: string) =>
  `Error from server (Forbidden): ${resource}${name === undefined ? "" : ` "${name}"`} is forbidden: User "${user}" cannot ${verb} resource "${resource}" in API group "" in the namespace "default"`;

describe.skipIf(!haveKubectl)("kubectl with an authorization webhook", () => {
  const testbed = new AuthorizationTestbed();
  let webhook: WebhookServer;
  let wendy: KubectlUser["run"];
  let skipMe: KubectlUser["run"];

  beforeAll(async () => {
    const [server, kubeConfigFile] = await testbed.webhook(wendyPolicy);
    webhook = server;
    const session = await testbed.start({ kubeConfigFile });
    await session.kubectl("create", "configmap", "cm2", "-n", "default", "--from-literal=k=v");
    await session.kubectl("create", "secret", "generic", "s1", "-n", "default", "--from-literal=k=v");
    wendy = testbed.user("wendy", "wendy-token").run;
    skipMe = testbed.user("skip-me", "skip-token").run;
  });

  afterAll(() => testbed.close());

  it("lets wendy get a configmap the webhook allows, and nothing it has no opinion on", async () => {
    expect(await wendy("get", "configmap", "cm1", "-n", "default", "-o", "name")).toMatchObject({
      code: 0,
      stdout: "configmap/cm1\n",
    });
    const list = await wendy("get", "configmaps", "-n", "default");
    expect(list.code).toBe(1);
    expect(list.stderr).toContain(forbiddenText("list", "configmaps", undefined, "wendy"));
  });

  it("refuses wendy secrets with the webhook's reason", async () => {
    const outcome = await wendy("get", "secret", "s1", "-n", "default");
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain(`${forbiddenText("get", "secrets", "s1", "wendy")}: ${wendyDenial}`);
  });

  it("answers auth can-i with the webhook's decisions", async () => {
    const canI = (...args: string[]) => wendy("auth", "can-i", ...args, "-n", "default");
    expect(await canI("get", "configmaps")).toMatchObject({ code: 0, stdout: "yes\n" });
    expect(await canI("get", "secrets")).toMatchObject({ code: 1, stdout: `no - ${wendyDenial}\n` });
    expect(await canI("delete", "pods")).toMatchObject({ code: 1, stdout: "no\n" });
  });

  it("sends the webhook a v1 SubjectAccessReview with the resource attributes and the user's groups", async () => {
    await wendy("get", "secret", "s1", "-n", "default");
    expect(reviewsOf(webhook, "wendy", "secrets", "s1")[0]).toMatchObject({
      apiVersion: "authorization.k8s.io/v1",
      kind: "SubjectAccessReview",
      spec: {
        user: "wendy",
        uid: "wendy-uid",
        groups: ["support", "webhook-users", "system:authenticated"],
        resourceAttributes: { namespace: "default", verb: "get", version: "v1", resource: "secrets", name: "s1" },
      },
    });
    // Mutual TLS: the kubeconfig's client certificate was presented.
    expect(webhook.requests.every((r) => r.clientCommonName === "kapi")).toBe(true);
  });

  it("answers a second identical request from its cache", async () => {
    const getCm2 = () => wendy("get", "configmap", "cm2", "-n", "default", "-o", "name");
    expect((await getCm2()).code).toBe(0);
    expect(reviewsOf(webhook, "wendy", "configmaps", "cm2")).toHaveLength(1);
    expect((await getCm2()).code).toBe(0);
    expect(reviewsOf(webhook, "wendy", "configmaps", "cm2")).toHaveLength(1);
  });

  it("skips the webhook for a user its match condition excludes", async () => {
    const outcome = await skipMe("get", "configmap", "cm1", "-n", "default");
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain(forbiddenText("get", "configmaps", "cm1", "skip-me"));
    expect(reviewsOf(webhook, "skip-me")).toHaveLength(0);
  });
});

describe.skipIf(!haveKubectl)("an authorization webhook that fails, with failurePolicy Deny", () => {
  const testbed = new AuthorizationTestbed();
  let webhook: WebhookServer;

  beforeAll(async () => {
    // 503 is not retried: the first failure decides.
    const [server, kubeConfigFile] = await testbed.webhook(() => ({ status: 503, body: { error: "down" } }));
    webhook = server;
    await testbed.start({ kubeConfigFile, failurePolicy: "Deny" });
  });

  afterAll(() => testbed.close());

  it("refuses what RBAC would allow, unless the match condition skips the webhook", async () => {
    const wendy = testbed.user("wendy", "wendy-token").run;
    // Discovery, which RBAC allows every user.
    const refused = await wendy("get", "--raw", "/api");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Error from server (Forbidden): forbidden: User "wendy" cannot get path "/api"');
    expect(reviewsOf(webhook, "wendy").length).toBeGreaterThan(0);
    const skipMe = testbed.user("skip-me", "skip-token").run;
    expect(await skipMe("get", "--raw", "/api")).toMatchObject({ code: 0, stderr: "" });
    expect(whoamiUser(await skipMe("auth", "whoami", "-o", "json")).username).toBe("skip-me");
    // system:masters is decided before the webhook.
    expect(await testbed.session.kubectl("get", "configmap", "cm1", "-n", "default", "-o", "name")).toBe(
      "configmap/cm1\n",
    );
  });
});

describe.skipIf(!haveKubectl)("reloading the authorization config file", () => {
  const testbed = new AuthorizationTestbed();
  let denying: string;
  let wendy: KubectlUser;

  beforeAll(async () => {
    const [, allowing] = await testbed.webhook(wendyPolicy);
    [, denying] = await testbed.webhook((body) =>
      (body as SubjectAccessReviewBody).spec.resourceAttributes?.resource === "configmaps"
        ? reviewed({ allowed: false, denied: true, reason: "the new webhook says no" })
        : reviewed({ allowed: false }),
    );
    await testbed.start({ kubeConfigFile: allowing });
    wendy = testbed.user("wendy", "wendy-token");
  });

  afterAll(() => testbed.close());

  it("serves a rewritten file without a restart, and keeps serving it when the next one is invalid", async () => {
    // Polled through kapi's client: a kubectl run takes longer.
    const client = new ClientCredentials(loadKubeconfig({ path: wendy.kubeconfig }));
    const wendyGetsCm1 = async () =>
      (await requestJson(client, { path: "/api/v1/namespaces/default/configmaps/cm1" })).status;
    expect(await wendyGetsCm1()).toBe(200);

    writeFileSync(testbed.config, authorizationConfiguration({ kubeConfigFile: denying }));
    await expect.poll(wendyGetsCm1, { timeout: 5000, interval: 100 }).toBe(403);
    const refused = await wendy.run("get", "configmap", "cm1", "-n", "default");
    expect(refused.stderr).toContain(`${forbiddenText("get", "configmaps", "cm1", "wendy")}: the new webhook says no`);

    const before = testbed.logged.length;
    writeFileSync(testbed.config, "apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\n");
    await expect
      .poll(() => testbed.logged.slice(before).some((line) => line.startsWith("reloading authorization config")), {
        timeout: 5000,
        interval: 50,
      })
      .toBe(true);
    expect(await wendyGetsCm1()).toBe(403);
    expect((await wendy.run("get", "configmap", "cm1", "-n", "default")).stderr).toContain("the new webhook says no");
  });
});

describe("--authorization-config with the legacy authorization flags", () => {
  const message =
    "--authorization-config can not be specified when --authorization-mode or --authorization-webhook-* flags are defined";

  it("refuses to start the server", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kapi-e2e-authz-flags-"));
    try {
      const config = join(dir, "authorization-config.yaml");
      writeFileSync(config, authorizationConfiguration({ kubeConfigFile: join(dir, "webhook.kubeconfig") }));
      await expect(
        startServer({ controllers: false, authorization: { authorizationConfig: config, authorizationMode: "RBAC" } }),
      ).rejects.toThrow(message);
      await expect(
        startServer({
          controllers: false,
          authorization: {
            authorizationConfig: config,
            authorizationWebhookConfigFile: join(dir, "webhook.kubeconfig"),
          },
        }),
      ).rejects.toThrow(message);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// ---- the exec credential plugin ----

describe.skipIf(!haveKubectl)("an exec credential plugin", () => {
  // The plugin prints token-<run>; the token file maps each of them to exec-user.
  const dir = mkdtempSync(join(tmpdir(), "kapi-e2e-exec-"));
  let plugin: ExecPluginFixture;
  let session: KubectlSession;
  let kubeconfig: string;

  beforeAll(async () => {
    plugin = writeExecPlugin();
    session = await startKubectlSession({ controllers: false, authentication: { tokenAuthFile: writeTokenFile(dir) } });
    // The admin kubeconfig with the plugin as its user (kubectl-auth-users' userKubeconfig takes strings only).
    const config = parse(session.server.kubeconfig) as { users: { user: unknown }[] };
    for (const entry of config.users) {
      entry.user = {
        exec: {
          apiVersion: "client.authentication.k8s.io/v1",
          command: plugin.command,
          interactiveMode: "Never",
          provideClusterInfo: true,
        },
      };
    }
    kubeconfig = session.file("exec-user.kubeconfig", stringify(config));
  });

  afterAll(async () => {
    await session?.close();
    plugin?.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  it("gives kubectl its token, and the cluster in KUBERNETES_EXEC_INFO", async () => {
    const whoami = await kubectlFor(session, kubeconfig).run("auth", "whoami", "-o", "json");
    expect(whoamiUser(whoami)).toEqual({
      username: "exec-user",
      uid: "exec-uid",
      groups: ["exec-plugin-users", "system:authenticated"],
    });
    expect(plugin.runs()).toBeGreaterThan(0);
    expect(plugin.input(1).info).toMatchObject({
      apiVersion: "client.authentication.k8s.io/v1",
      kind: "ExecCredential",
      spec: {
        interactive: false,
        cluster: {
          server: session.server.url,
          "certificate-authority-data": Buffer.from(caOf(session)).toString("base64"),
        },
      },
    });
  });

  it("runs once for two requests of kapi's client", async () => {
    const client = new ClientCredentials(loadKubeconfig({ path: kubeconfig }));
    const runs = plugin.runs();
    for (let i = 0; i < 2; i++) {
      const review = await requestJson(client, {
        method: "POST",
        path: "/apis/authentication.k8s.io/v1/selfsubjectreviews",
        body: { apiVersion: "authentication.k8s.io/v1", kind: "SelfSubjectReview" },
      });
      expect(review.status).toBe(201);
      expect(review.body).toMatchObject({ status: { userInfo: { username: "exec-user" } } });
    }
    expect(plugin.runs()).toBe(runs + 1);
  });
});
