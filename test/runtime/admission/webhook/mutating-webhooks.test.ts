// MutatingAdmissionWebhook against a local HTTPS webhook registered by url: JSON patches applied (and
// refused as kube refuses them), reinvocation under IfNeeded, v1beta1 reviews. The expected texts are the
// reference kube-apiserver v1.36's answers to the same webhooks and requests.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KubeObject } from "../../../../runtime/object/kube-object.js";
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

const jsonPatch = (ops: unknown[]) => ({
  allowed: true,
  patchType: "JSONPatch",
  patch: Buffer.from(JSON.stringify(ops)).toString("base64"),
});

describe("mutating admission webhooks", () => {
  let kapi: WebhookServerUnderTest;
  let hook: AdmissionWebhookServer;

  beforeAll(async () => {
    hook = await startAdmissionWebhookServer();
    kapi = await startKapiWithWebhooks();
    hook.handle("/patch", () => ({
      response: {
        ...jsonPatch([
          { op: "add", path: "/data/patched", value: "yes" },
          { op: "add", path: "/metadata/labels/unknownless", value: "1" },
          { op: "add", path: "/notAField", value: 1 },
        ]),
        auditAnnotations: { reviewed: "yes" },
      },
    }));
    hook.handle("/patchbad", () => ({ response: jsonPatch([{ op: "remove", path: "/nope/x" }]) }));
    hook.handle("/patchtype", () => ({
      response: { allowed: true, patchType: "Merge", patch: Buffer.from("{}").toString("base64") },
    }));
    hook.handle("/patchonly", () => ({ response: { allowed: true, patch: Buffer.from("[]").toString("base64") } }));
    hook.handle("/beta", () => ({
      response: {
        allowed: true,
        patch: Buffer.from(JSON.stringify([{ op: "add", path: "/data/beta", value: "1" }])).toString("base64"),
      },
    }));
    // Reinvocation: `first` (IfNeeded) stamps an annotation; `second` changes the object or not.
    hook.handle("/first", () => ({
      response: jsonPatch([{ op: "add", path: "/metadata/annotations", value: { first: "ran" } }]),
    }));
    hook.handle("/second", (review) => {
      const changes = (review.request.object as { metadata: { name: string } }).metadata.name === "reinvoke-changed";
      return { response: changes ? jsonPatch([{ op: "add", path: "/data/second", value: "ran" }]) : { allowed: true } };
    });
    await register(kapi.server, "mutating", "b-mutating", [
      ...["patch", "patchbad", "patchtype", "patchonly"].map((c) => configMapWebhook(hook, `${c}.b.example.com`, c)),
      configMapWebhook(hook, "beta.b.example.com", "beta", { admissionReviewVersions: ["v2", "v1beta1", "v1"] }),
      configMapWebhook(hook, "first.b.example.com", "reinvoke", {
        reinvocationPolicy: "IfNeeded",
        clientConfig: { url: `https://127.0.0.1:${hook.port}/first`, caBundle: hook.caBundle },
      }),
      configMapWebhook(hook, "second.b.example.com", "reinvoke", {
        clientConfig: { url: `https://127.0.0.1:${hook.port}/second`, caBundle: hook.caBundle },
      }),
    ]);
  });
  afterAll(async () => {
    await kapi.server.close();
    await hook.close();
  });

  const callsTo = (path: string, name: string) =>
    hook.calls.filter(
      (c) =>
        c.path.startsWith(path) &&
        (c.review.request.object as { metadata?: { name?: string } })?.metadata?.name === name,
    ).length;

  it("applies a JSON patch, dropping what the kind does not know", async () => {
    const answer = await createConfigMap(kapi.server, configMap("patched", "patch"));
    expect(answer.status).toBe(201);
    expect(answer.body.data).toEqual({ a: "b", patched: "yes" });
    expect((answer.body.metadata as { labels: unknown }).labels).toEqual({ case: "patch", unknownless: "1" });
    expect(answer.body).not.toHaveProperty("notAField");
  });

  it("answers a patch that does not apply, or is not a JSON patch, as kube does", async () => {
    const bad = await createConfigMap(kapi.server, configMap("patchbad", "patchbad"));
    expect(bad.body).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message:
        'Internal error occurred: remove operation does not apply: doc is missing path: "/nope/x": missing value',
      reason: "InternalError",
      details: {
        causes: [{ message: 'remove operation does not apply: doc is missing path: "/nope/x": missing value' }],
      },
      code: 500,
    });
    const type = await createConfigMap(kapi.server, configMap("patchtype", "patchtype"));
    expect([type.status, type.body.message]).toEqual([
      500,
      'Internal error occurred: failed calling webhook "patchtype.b.example.com": received undecodable patch in webhook response: json: cannot unmarshal object into Go value of type jsonpatch.Patch',
    ]);
    const only = await createConfigMap(kapi.server, configMap("patchonly", "patchonly"));
    expect([only.status, only.body.message]).toEqual([
      500,
      'Internal error occurred: failed calling webhook "patchonly.b.example.com": received invalid webhook response: webhook returned response.patch but not response.patchType',
    ]);
  });

  it("refuses a patch of a delete, which has no object to patch", async () => {
    // kube admits a delete with the object it is about to delete as the old object; kapi's delete path
    // admits mutating plugins before reading it, so the plugin is handed kube's attributes here.
    const kind = kapi.server.resources.kinds.servedKind("", "v1", "configmaps");
    if (kind === undefined) throw new Error("no configmaps");
    const oldObject = configMap("to-delete", "patch") as KubeObject;
    const admitted = kapi.plugins[0]?.mutate?.({
      operation: "DELETE",
      kind,
      namespace: "default",
      name: "to-delete",
      subresource: undefined,
      oldObject,
      dryRun: false,
    });
    await expect(admitted).rejects.toThrow(
      'Internal error occurred: admission webhook "patch.b.example.com" attempted to modify the object, which is not supported for this operation',
    );
    await expect(admitted).rejects.toMatchObject({ code: 500 });
  });

  it("sends a v1beta1 review to a webhook that takes only that, and reads its patch as a JSON patch", async () => {
    const answer = await createConfigMap(kapi.server, configMap("beta", "beta"));
    expect(answer.status).toBe(201);
    expect(answer.body.data).toEqual({ a: "b", beta: "1" });
    const call = hook.calls.find((c) => c.path.startsWith("/beta"));
    expect(call?.review.apiVersion).toBe("admission.k8s.io/v1beta1");
  });

  it("calls an IfNeeded webhook again only when a later webhook changed the object", async () => {
    const changed = await createConfigMap(kapi.server, configMap("reinvoke-changed", "reinvoke"));
    expect(changed.status).toBe(201);
    expect(changed.body.data).toEqual({ a: "b", second: "ran" });
    expect([callsTo("/first", "reinvoke-changed"), callsTo("/second", "reinvoke-changed")]).toEqual([2, 1]);

    const unchanged = await createConfigMap(kapi.server, configMap("reinvoke-same", "reinvoke"));
    expect(unchanged.status).toBe(201);
    expect([callsTo("/first", "reinvoke-same"), callsTo("/second", "reinvoke-same")]).toEqual([1, 1]);
  });

  it("annotates the audit event with the webhook's annotations and whether it mutated", async () => {
    const kind = kapi.server.resources.kinds.servedKind("", "v1", "configmaps");
    if (kind === undefined) throw new Error("no configmaps");
    const annotations: Record<string, string> = {};
    await kapi.plugins[0]?.mutate?.({
      operation: "CREATE",
      kind,
      namespace: "default",
      name: "annotated",
      subresource: undefined,
      object: configMap("annotated", "patch") as KubeObject,
      dryRun: false,
      request: {
        user: { name: "someone", groups: ["system:authenticated"] },
        warn: () => {},
        annotate: (key, value) => {
          annotations[key] = value;
        },
      },
      reinvocation: { isReinvoke: false, requested: false, state: new Map() },
    });
    expect(annotations).toEqual({
      "patch.b.example.com/reviewed": "yes",
      "mutation.webhook.admission.k8s.io/round_0_index_0": JSON.stringify({
        configuration: "b-mutating",
        webhook: "patch.b.example.com",
        mutated: true,
      }),
    });
    const call = hook.calls.at(-1);
    expect(call?.review.request.userInfo).toEqual({ username: "someone", groups: ["system:authenticated"] });
  });

  it("records each call and whether it was rejected", async () => {
    const samples = await kapi.metrics.samples();
    expect(samples).toContainEqual(
      expect.objectContaining({
        family: "apiserver_admission_webhook_request_total",
        labels: { name: "patch.b.example.com", type: "admit", operation: "CREATE", rejected: "false", code: "200" },
      }),
    );
    expect(samples).toContainEqual(
      expect.objectContaining({
        family: "apiserver_admission_webhook_rejection_count",
        labels: {
          name: "patchonly.b.example.com",
          type: "admit",
          operation: "CREATE",
          error_type: "calling_webhook_error",
          rejection_code: "503",
        },
      }),
    );
  });
});
