// ValidatingAdmissionWebhook against a local HTTPS webhook registered by url. The expected Status texts and
// codes are the reference kube-apiserver v1.36's answers to the same webhooks and requests.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../../e2e/free-port.js";
import {
  type AdmissionWebhookServer,
  configMap,
  configMapWebhook,
  createConfigMap,
  register,
  startAdmissionWebhookServer,
  startKapiWithWebhooks,
  type WebhookServerUnderTest,
} from "./webhook-fixtures.js";

describe("validating admission webhooks", () => {
  let kapi: WebhookServerUnderTest;
  let hook: AdmissionWebhookServer;
  let deadPort: number;
  let elsewhere: AdmissionWebhookServer;

  beforeAll(async () => {
    hook = await startAdmissionWebhookServer();
    elsewhere = await startAdmissionWebhookServer([], "127.0.0.2");
    kapi = await startKapiWithWebhooks();
    deadPort = await freePort();
    hook.handle("/deny", () => ({ response: { allowed: false, status: { message: "no thanks" } } }));
    hook.handle("/deny-empty", () => ({ response: { allowed: false } }));
    hook.handle("/deny-reason", () => ({ response: { allowed: false, status: { reason: "SomeReason", code: 409 } } }));
    hook.handle("/deny-code", () => ({
      response: { allowed: false, status: { message: "nope", code: 403, reason: "Forbidden", details: { name: "x" } } },
    }));
    hook.handle("/badjson", () => ({ raw: "not json" }));
    hook.handle("/status500", () => ({
      status: 500,
      raw: '{"kind":"Status","apiVersion":"v1","status":"Failure","message":"boom","code":500}',
    }));
    hook.handle("/status403text", () => ({ status: 403, raw: "forbidden text", contentType: "text/plain" }));
    hook.handle("/wronguid", (review) => ({
      raw: JSON.stringify({
        apiVersion: review.apiVersion,
        kind: "AdmissionReview",
        response: { uid: "x", allowed: true },
      }),
    }));
    hook.handle("/noresponse", (review) => ({
      raw: JSON.stringify({ apiVersion: review.apiVersion, kind: "AdmissionReview" }),
    }));
    hook.handle("/patch", () => ({
      response: { allowed: true, patchType: "JSONPatch", patch: Buffer.from("[]").toString("base64") },
    }));
    hook.handle("/slow", () => ({ response: { allowed: true }, delayMs: 1500 }));
    hook.handle("/warn", () => ({ response: { allowed: true, warnings: ["w1", "w2"] } }));
    const cases = ["deny", "deny-empty", "deny-reason", "deny-code", "badjson", "status500", "status403text"];
    await register(kapi.server, "validating", "b-validating", [
      ...[...cases, "wronguid", "noresponse", "patch", "warn"].map((c) =>
        configMapWebhook(hook, `${c}.b.example.com`, c),
      ),
      configMapWebhook(hook, "slow.b.example.com", "slow", { timeoutSeconds: 1 }),
      configMapWebhook(hook, "dead.b.example.com", "dead", {
        clientConfig: { url: `https://127.0.0.1:${deadPort}/x`, caBundle: hook.caBundle },
      }),
      configMapWebhook(hook, "dead-ignore.b.example.com", "dead-ignore", {
        clientConfig: { url: `https://127.0.0.1:${deadPort}/x`, caBundle: hook.caBundle },
        failurePolicy: "Ignore",
      }),
      configMapWebhook(hook, "other-ip.b.example.com", "other-ip", {
        clientConfig: { url: `https://127.0.0.2:${elsewhere.port}/allow`, caBundle: elsewhere.caBundle },
      }),
      configMapWebhook(hook, "nocab.b.example.com", "nocab", {
        clientConfig: { url: `https://127.0.0.1:${hook.port}/allow` },
      }),
    ]);
  });
  afterAll(async () => {
    await kapi.server.close();
    await hook.close();
    await elsewhere.close();
  });

  const internalError = (message: string) => ({
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Failure",
    message: `Internal error occurred: ${message}`,
    reason: "InternalError",
    details: { causes: [{ message }] },
    code: 500,
  });

  it("answers a denial with the webhook's message, 400 when it gave no code", async () => {
    const answer = await createConfigMap(kapi.server, configMap("deny", "deny"));
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: 'admission webhook "deny.b.example.com" denied the request: no thanks',
      code: 400,
    });
  });

  it("says `without explanation` for a bare denial and keeps a reason, code and details the webhook gave", async () => {
    const empty = await createConfigMap(kapi.server, configMap("deny-empty", "deny-empty"));
    expect([empty.status, empty.body.message]).toEqual([
      400,
      'admission webhook "deny-empty.b.example.com" denied the request without explanation',
    ]);
    const reason = await createConfigMap(kapi.server, configMap("deny-reason", "deny-reason"));
    expect([reason.status, reason.body.message, reason.body.reason]).toEqual([
      409,
      'admission webhook "deny-reason.b.example.com" denied the request: SomeReason',
      "SomeReason",
    ]);
    const code = await createConfigMap(kapi.server, configMap("deny-code", "deny-code"));
    expect(code.status).toBe(403);
    expect(code.body).toMatchObject({
      message: 'admission webhook "deny-code.b.example.com" denied the request: nope',
      reason: "Forbidden",
      details: { name: "x" },
      code: 403,
    });
  });

  it("fails closed with kube's texts when the webhook cannot be called or answers nonsense", async () => {
    const cases: [string, string][] = [
      [
        "badjson",
        `failed calling webhook "badjson.b.example.com": failed to call webhook: couldn't get version/kind; json parse error: json: cannot unmarshal string into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`,
      ],
      ["status500", 'failed calling webhook "status500.b.example.com": failed to call webhook: boom'],
      ["status403text", 'failed calling webhook "status403text.b.example.com": failed to call webhook: forbidden text'],
      [
        "noresponse",
        'failed calling webhook "noresponse.b.example.com": received invalid webhook response: webhook response was absent',
      ],
      [
        "patch",
        'failed calling webhook "patch.b.example.com": received invalid webhook response: validating webhook may not return response.patch',
      ],
      [
        "dead",
        `failed calling webhook "dead.b.example.com": failed to call webhook: Post "https://127.0.0.1:${deadPort}/x?timeout=5s": dial tcp 127.0.0.1:${deadPort}: connect: connection refused`,
      ],
      [
        "other-ip",
        `failed calling webhook "other-ip.b.example.com": failed to call webhook: Post "https://127.0.0.2:${elsewhere.port}/allow?timeout=5s": tls: failed to verify certificate: x509: certificate is valid for 127.0.0.1, not 127.0.0.2`,
      ],
      [
        "nocab",
        `failed calling webhook "nocab.b.example.com": failed to call webhook: Post "https://127.0.0.1:${hook.port}/allow?timeout=5s": tls: failed to verify certificate: x509: certificate signed by unknown authority`,
      ],
    ];
    for (const [label, message] of cases) {
      const answer = await createConfigMap(kapi.server, configMap(label, label));
      expect(answer.body, label).toEqual(internalError(message));
    }
    const wrongUid = await createConfigMap(kapi.server, configMap("wronguid", "wronguid"));
    expect(wrongUid.body.message).toMatch(
      /^Internal error occurred: failed calling webhook "wronguid.b.example.com": received invalid webhook response: expected response.uid="[0-9a-f-]{36}", got "x"$/,
    );
  });

  it("gives up on a webhook after its timeoutSeconds", async () => {
    const started = Date.now();
    const answer = await createConfigMap(kapi.server, configMap("slow", "slow"));
    expect(Date.now() - started).toBeLessThan(1500);
    expect(answer.body).toEqual(
      internalError(
        `failed calling webhook "slow.b.example.com": failed to call webhook: Post "https://127.0.0.1:${hook.port}/slow?timeout=1s": context deadline exceeded`,
      ),
    );
  });

  it("lets the request through when a webhook under failurePolicy Ignore cannot be called, and counts it", async () => {
    const answer = await createConfigMap(kapi.server, configMap("dead-ignore", "dead-ignore"));
    expect(answer.status).toBe(201);
    const samples = await kapi.metrics.samples();
    expect(samples).toContainEqual({
      family: "apiserver_admission_webhook_fail_open_count",
      labels: { name: "dead-ignore.b.example.com", type: "validating" },
      count: 1,
      sum: 1,
    });
    expect(samples).toContainEqual(
      expect.objectContaining({
        family: "apiserver_admission_webhook_request_total",
        labels: {
          name: "dead-ignore.b.example.com",
          type: "validating",
          operation: "CREATE",
          rejected: "false",
          code: "503",
        },
      }),
    );
    expect(samples).toContainEqual(
      expect.objectContaining({
        family: "apiserver_admission_webhook_rejection_count",
        labels: {
          name: "deny.b.example.com",
          type: "validating",
          operation: "CREATE",
          error_type: "no_error",
          rejection_code: "400",
        },
      }),
    );
  });

  it("passes the webhook's warnings on as Warning headers", async () => {
    const answer = await createConfigMap(kapi.server, configMap("warn", "warn"));
    expect(answer.status).toBe(201);
    expect(answer.warnings).toBe('299 - "w1", 299 - "w2"');
  });

  it("sends the review kube sends: the object after validation, the user, the options", async () => {
    const call = hook.calls.find((c) => c.path.startsWith("/warn"));
    expect(call?.path).toBe("/warn?timeout=5s");
    expect(call?.headers["user-agent"]).toBe("kube-apiserver-admission");
    const review = call?.review as { apiVersion: string; kind: string; request: Record<string, unknown> };
    expect(Object.keys(review)).toEqual(["kind", "apiVersion", "request"]);
    expect(review.apiVersion).toBe("admission.k8s.io/v1");
    expect(Object.keys(review.request)).toEqual([
      "uid",
      "kind",
      "resource",
      "requestKind",
      "requestResource",
      "name",
      "namespace",
      "operation",
      "userInfo",
      "object",
      "oldObject",
      "dryRun",
      "options",
    ]);
    expect(review.request).toMatchObject({
      kind: { group: "", version: "v1", kind: "ConfigMap" },
      resource: { group: "", version: "v1", resource: "configmaps" },
      name: "warn",
      namespace: "default",
      operation: "CREATE",
      oldObject: null,
      dryRun: false,
      options: { kind: "CreateOptions", apiVersion: "meta.k8s.io/v1" },
    });
    const object = review.request.object as { metadata: Record<string, unknown> };
    expect(object.metadata.uid).toEqual(expect.any(String));
    expect(object.metadata.creationTimestamp).toEqual(expect.any(String));
  });

  it("never calls webhooks for webhook configurations themselves", async () => {
    const before = hook.calls.length;
    await register(kapi.server, "validating", "b-everything", [
      {
        ...configMapWebhook(hook, "all.b.example.com", "deny"),
        rules: [{ operations: ["*"], apiGroups: ["*"], apiVersions: ["*"], resources: ["*/*"] }],
        objectSelector: {},
        clientConfig: { url: `https://127.0.0.1:${hook.port}/deny`, caBundle: hook.caBundle },
      },
    ]);
    const removed = await kapi.server.request({
      method: "DELETE",
      path: "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/b-everything",
    });
    expect(removed.status).toBe(200);
    expect(hook.calls.length).toBe(before);
  });
});
