import { mkdtempSync, writeFileSync } from "node:fs";
import type { IncomingHttpHeaders } from "node:http";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AuthenticationError } from "../../../runtime/access/authenticator.js";
import { WebhookTokenAuthenticator, webhookTokenAuthenticator } from "../../../runtime/authn/webhook-token.js";
import { createServingCertificates } from "../../../runtime/http/certificates.js";
import { loadWebhookClient } from "../../../runtime/http/webhook-client.js";

interface Received {
  method: string | undefined;
  url: string | undefined;
  headers: IncomingHttpHeaders;
  body: { apiVersion: string; kind: string; spec: { token: string; audiences?: string[] } };
}

type Answer = (review: Received["body"]) => { status: number; body: unknown };

const certificates = createServingCertificates({ dns: ["localhost"], ips: ["127.0.0.1"] });
const received: Received[] = [];
let answers: Answer[] = [];
let server: Server;
let kubeconfig: string;

const review = (version: string, status: unknown) => ({
  status: 200,
  body: { apiVersion: `authentication.k8s.io/${version}`, kind: "TokenReview", status },
});
const authenticated = (version = "v1", extra: Record<string, unknown> = {}) =>
  review(version, {
    authenticated: true,
    user: { username: "jane", uid: "u-1", groups: ["dev"], extra: { scopes: ["a", "b"] } },
    ...extra,
  });

beforeAll(async () => {
  server = createServer({ cert: certificates.cert, key: certificates.key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      received.push({ method: req.method, url: req.url, headers: req.headers, body });
      const answer = answers.shift() ?? (() => ({ status: 500, body: { message: "no answer left" } }));
      const { status, body: reply } = answer(body);
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(reply));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  kubeconfig = join(mkdtempSync(join(tmpdir(), "kapi-webhook-")), "webhook.kubeconfig");
  writeFileSync(
    kubeconfig,
    `apiVersion: v1
kind: Config
clusters:
- name: authn
  cluster:
    server: https://127.0.0.1:${port}/authenticate
    certificate-authority-data: ${Buffer.from(certificates.caCert).toString("base64")}
users:
- name: apiserver
  user:
    token: webhook-secret
contexts:
- name: webhook
  context:
    cluster: authn
    user: apiserver
current-context: webhook
`,
  );
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  received.length = 0;
  answers = [];
});

const authenticator = (version: "v1" | "v1beta1" = "v1", apiAudiences: string[] = []) =>
  new WebhookTokenAuthenticator(loadWebhookClient(kubeconfig), version, apiAudiences, { retryDelayMs: 1 });

describe("WebhookTokenAuthenticator", () => {
  it("POSTs a TokenReview to the kubeconfig's server and maps the answer to a user", async () => {
    answers = [() => authenticated()];
    expect(await authenticator().authenticateToken("the-token")).toEqual({
      user: { name: "jane", uid: "u-1", groups: ["dev"], extra: { scopes: ["a", "b"] } },
    });
    const [request] = received;
    expect(request?.method).toBe("POST");
    expect(request?.url).toBe("/authenticate");
    expect(request?.headers.authorization).toBe("Bearer webhook-secret");
    expect(request?.headers["content-type"]).toBe("application/json");
    expect(request?.body).toMatchObject({
      apiVersion: "authentication.k8s.io/v1",
      kind: "TokenReview",
      spec: { token: "the-token" },
    });
    expect(request?.body.spec.audiences).toBeUndefined();
  });

  it("speaks v1beta1 when told to", async () => {
    answers = [() => authenticated("v1beta1")];
    expect((await authenticator("v1beta1").authenticateToken("t"))?.user.name).toBe("jane");
    expect(received[0]?.body.apiVersion).toBe("authentication.k8s.io/v1beta1");
  });

  it("refuses an answer of another version or kind", async () => {
    answers = [() => authenticated("v1")];
    await expect(authenticator("v1beta1").authenticateToken("t")).rejects.toThrow(
      "the token webhook answered a authentication.k8s.io/v1 TokenReview, not a authentication.k8s.io/v1beta1 TokenReview",
    );
  });

  it("is no one's when not authenticated, and an error when the answer says one", async () => {
    answers = [() => review("v1", { authenticated: false }), () => review("v1", { error: "token expired" })];
    expect(await authenticator().authenticateToken("t")).toBeUndefined();
    const failure = authenticator().authenticateToken("t");
    await expect(failure).rejects.toBeInstanceOf(AuthenticationError);
    await expect(failure).rejects.toThrow("token expired");
  });

  it("asks for the API server's audiences and checks the answer against them", async () => {
    answers = [() => authenticated(), () => authenticated("v1", { audiences: ["elsewhere"] })];
    expect(await authenticator("v1", ["api"]).authenticateToken("t")).toMatchObject({ audiences: ["api"] });
    expect(received[0]?.body.spec.audiences).toEqual(["api"]);
    expect(await authenticator("v1", ["api"]).authenticateToken("t")).toBeUndefined();
  });

  it("asks for the audiences the caller names (TokenReview's spec.audiences)", async () => {
    answers = [() => authenticated("v1", { audiences: ["vault", "other"] })];
    expect(await authenticator("v1", ["api"]).authenticateToken("t", ["vault"])).toMatchObject({
      audiences: ["vault"],
    });
    expect(received[0]?.body.spec.audiences).toEqual(["vault"]);
  });

  it("retries transient failures with backoff, and fails on others", async () => {
    answers = [() => ({ status: 500, body: {} }), () => ({ status: 429, body: {} }), () => authenticated()];
    expect((await authenticator().authenticateToken("t"))?.user.name).toBe("jane");
    expect(received).toHaveLength(3);
    answers = [() => ({ status: 403, body: { kind: "Status", message: "forbidden" } })];
    await expect(authenticator().authenticateToken("t")).rejects.toThrow("the token webhook answered 403: forbidden");
    answers = Array.from({ length: 5 }, () => () => ({ status: 500, body: {} }));
    await expect(authenticator().authenticateToken("t")).rejects.toThrow("the token webhook answered 500");
  });

  it("fails when the webhook cannot be reached", async () => {
    const client = { ...loadWebhookClient(kubeconfig), url: new URL("https://127.0.0.1:1/authenticate") };
    const unreachable = new WebhookTokenAuthenticator(client, "v1", [], { retryDelayMs: 1 });
    await expect(unreachable.authenticateToken("t")).rejects.toThrow(
      /^Post "https:\/\/127\.0\.0\.1:1\/authenticate": .*ECONNREFUSED/,
    );
  });
});

describe("webhookTokenAuthenticator", () => {
  it("caches answers for the TTL, but not errors", async () => {
    const cached = webhookTokenAuthenticator({ configFile: kubeconfig, version: "v1", cacheTtlMs: 60_000 }, []);
    answers = [() => review("v1", { authenticated: false }), () => ({ status: 403, body: {} }), () => authenticated()];
    expect(await cached.authenticateToken("nobody")).toBeUndefined();
    expect(await cached.authenticateToken("nobody")).toBeUndefined();
    await expect(cached.authenticateToken("t")).rejects.toThrow(/403/);
    expect((await cached.authenticateToken("t"))?.user.name).toBe("jane");
    expect((await cached.authenticateToken("t"))?.user.name).toBe("jane");
    expect(received).toHaveLength(3);
  });

  it("speaks v1beta1 by default, as kube-apiserver does, and refuses other versions", async () => {
    answers = [() => authenticated("v1beta1")];
    await webhookTokenAuthenticator({ configFile: kubeconfig }, []).authenticateToken("t");
    expect(received[0]?.body.apiVersion).toBe("authentication.k8s.io/v1beta1");
    expect(() => webhookTokenAuthenticator({ configFile: kubeconfig, version: "v2" }, [])).toThrow(
      'unsupported authentication webhook version "v2", supported versions are "v1", "v1beta1"',
    );
  });
});
