// Which requests reach a webhook: namespaceSelector (a Namespace by its own labels), objectSelector (the new or
// the old object), matchPolicy Equivalent (the request at another served version, converted both ways),
// matchConditions, dry run against sideEffects, and a configuration change taking effect at once. Expected
// texts are the reference kube-apiserver v1.36's.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AdmissionMetrics } from "../../../../runtime/admission/admission-metrics.js";
import { admissionPolicyEnvironment } from "../../../../runtime/admission/policy/policy-environment.js";
import { dispatchValidating } from "../../../../runtime/admission/webhook/validating-dispatcher.js";
import { RequestMatcher } from "../../../../runtime/admission/webhook/webhook-matcher.js";
import type { KubeObject } from "../../../../runtime/object/kube-object.js";
import {
  type AdmissionWebhookServer,
  configMap,
  configMapWebhook,
  createConfigMap,
  register,
  startAdmissionWebhookServer,
  startKapiWithWebhooks,
  unregister,
  until,
  type WebhookServerUnderTest,
} from "./webhook-fixtures.js";

const cpuPatch = {
  allowed: true,
  patchType: "JSONPatch",
  patch: Buffer.from(JSON.stringify([{ op: "add", path: "/spec/targetCPUUtilizationPercentage", value: 42 }])).toString(
    "base64",
  ),
};

describe("which requests reach a webhook", () => {
  let kapi: WebhookServerUnderTest;
  let hook: AdmissionWebhookServer;

  beforeAll(async () => {
    hook = await startAdmissionWebhookServer();
    kapi = await startKapiWithWebhooks();
    hook.handle("/equivalent", () => ({ response: cpuPatch }));
    hook.handle("/deny", () => ({ response: { allowed: false, status: { message: "no" } } }));
  });
  afterAll(async () => {
    await kapi.server.close();
    await hook.close();
  });

  const namesCalledAt = (path: string) =>
    hook.calls
      .filter((c) => c.path.startsWith(path))
      .map(
        (c) =>
          ((c.review.request.object ?? c.review.request.oldObject) as { metadata: { name: string } }).metadata.name,
      );

  it("matches a request at an equivalent version under Equivalent, converting the object and the patch", async () => {
    const hpaRule = {
      operations: ["CREATE"],
      apiGroups: ["autoscaling"],
      apiVersions: ["v1"],
      resources: ["horizontalpodautoscalers"],
    };
    await register(kapi.server, "mutating", "b-equivalent", [
      {
        ...configMapWebhook(hook, "equivalent.b.example.com", "equivalent"),
        rules: [hpaRule],
        matchPolicy: "Equivalent",
      },
      {
        ...configMapWebhook(hook, "exact.b.example.com", "exact"),
        rules: [hpaRule],
        matchPolicy: "Exact",
        objectSelector: { matchLabels: { case: "equivalent" } },
      },
    ]);
    const response = await kapi.server.request({
      method: "POST",
      path: "/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers",
      body: {
        apiVersion: "autoscaling/v2",
        kind: "HorizontalPodAutoscaler",
        metadata: { name: "equivalent", labels: { case: "equivalent" } },
        spec: {
          scaleTargetRef: { apiVersion: "apps/v1", kind: "Deployment", name: "x" },
          minReplicas: 1,
          maxReplicas: 3,
        },
      },
    });
    expect(response.status).toBe(201);
    const hpa = (await response.json()) as { apiVersion: string; spec: { metrics: unknown } };
    expect(hpa.apiVersion).toBe("autoscaling/v2");
    expect(hpa.spec.metrics).toEqual([
      { type: "Resource", resource: { name: "cpu", target: { type: "Utilization", averageUtilization: 42 } } },
    ]);
    const call = hook.calls.find((c) => c.path.startsWith("/equivalent"));
    expect(call?.review.request).toMatchObject({
      kind: { group: "autoscaling", version: "v1", kind: "HorizontalPodAutoscaler" },
      resource: { group: "autoscaling", version: "v1", resource: "horizontalpodautoscalers" },
      requestKind: { group: "autoscaling", version: "v2", kind: "HorizontalPodAutoscaler" },
      requestResource: { group: "autoscaling", version: "v2", resource: "horizontalpodautoscalers" },
    });
    expect((call?.review.request.object as KubeObject | undefined)?.apiVersion).toBe("autoscaling/v1");
    expect(namesCalledAt("/exact")).toEqual([]);
    await unregister(kapi.server, "mutating", "b-equivalent");
  });

  it("selects by the namespace's labels, and a Namespace by its own", async () => {
    for (const [name, labels] of [
      ["b-selected", { "b-webhooks": "on" }],
      ["b-unselected", {}],
    ] as const) {
      const created = await kapi.server.request({
        method: "POST",
        path: "/api/v1/namespaces",
        body: { apiVersion: "v1", kind: "Namespace", metadata: { name, labels } },
      });
      expect(created.status).toBe(201);
    }
    await register(kapi.server, "validating", "b-namespaces", [
      {
        ...configMapWebhook(hook, "ns.b.example.com", "ns"),
        objectSelector: { matchLabels: { case: "ns" } },
        namespaceSelector: { matchLabels: { "b-webhooks": "on" } },
      },
      {
        ...configMapWebhook(hook, "own.b.example.com", "own"),
        rules: [{ operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["namespaces"] }],
        objectSelector: {},
        namespaceSelector: { matchLabels: { "b-own": "yes" } },
      },
    ]);
    expect((await createConfigMap(kapi.server, configMap("in-selected", "ns", "b-selected"))).status).toBe(201);
    expect((await createConfigMap(kapi.server, configMap("in-unselected", "ns", "b-unselected"))).status).toBe(201);
    expect(namesCalledAt("/ns")).toEqual(["in-selected"]);
    for (const [name, labels] of [
      ["b-own-yes", { "b-own": "yes" }],
      ["b-own-no", { "b-own": "no" }],
    ] as const) {
      await kapi.server.request({
        method: "POST",
        path: "/api/v1/namespaces",
        body: { apiVersion: "v1", kind: "Namespace", metadata: { name, labels } },
      });
    }
    expect(namesCalledAt("/own")).toEqual(["b-own-yes"]);
    await unregister(kapi.server, "validating", "b-namespaces");
  });

  it("selects an update by its old object's labels too", async () => {
    expect((await createConfigMap(kapi.server, configMap("relabelled", "old-label"))).status).toBe(201);
    await register(kapi.server, "validating", "b-objects", [configMapWebhook(hook, "old.b.example.com", "old-label")]);
    const updated = await kapi.server.request({
      method: "PUT",
      path: "/api/v1/namespaces/default/configmaps/relabelled",
      body: { ...configMap("relabelled", "new-label") },
    });
    expect(updated.status).toBe(200);
    const call = hook.calls.find((c) => c.path.startsWith("/old-label"));
    expect(call?.review.request.operation).toBe("UPDATE");
    expect((call?.review.request.oldObject as KubeObject | undefined)?.metadata).toMatchObject({
      labels: { case: "old-label" },
    });
    await unregister(kapi.server, "validating", "b-objects");
  });

  it("skips a webhook whose match condition is false, and fails the request on a condition's error under Fail", async () => {
    await register(kapi.server, "validating", "b-conditions", [
      configMapWebhook(hook, "cond.b.example.com", "cond", {
        matchConditions: [{ name: "named", expression: "object.metadata.name.startsWith('cond-')" }],
      }),
      configMapWebhook(hook, "cond-error.b.example.com", "cond-error", {
        matchConditions: [{ name: "bad", expression: "object.data.nope == 'x'" }],
      }),
      configMapWebhook(hook, "cond-ignore.b.example.com", "cond-ignore", {
        failurePolicy: "Ignore",
        matchConditions: [{ name: "bad", expression: "object.data.nope == 'x'" }],
      }),
    ]);
    expect((await createConfigMap(kapi.server, configMap("cond-yes", "cond"))).status).toBe(201);
    expect((await createConfigMap(kapi.server, configMap("other", "cond"))).status).toBe(201);
    expect(namesCalledAt("/cond")).toEqual(["cond-yes"]);
    const failed = await createConfigMap(kapi.server, configMap("cond-error", "cond-error"));
    expect(failed.status).toBe(403);
    expect(failed.body).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: `configmaps "cond-error" is forbidden: expression 'object.data.nope == 'x'' resulted in error: no such key: nope`,
      reason: "Forbidden",
      details: { name: "cond-error", kind: "configmaps" },
      code: 403,
    });
    expect((await createConfigMap(kapi.server, configMap("cond-ignore", "cond-ignore"))).status).toBe(201);
    expect(namesCalledAt("/cond-ignore")).toEqual([]);
    await unregister(kapi.server, "validating", "b-conditions");
  });

  it("calls webhooks without side effects on a dry run, and refuses to register others", async () => {
    await register(kapi.server, "validating", "b-dry-run", [
      configMapWebhook(hook, "none.b.example.com", "dry-none", { sideEffects: "None" }),
      configMapWebhook(hook, "on-dry-run.b.example.com", "dry-nodr", { sideEffects: "NoneOnDryRun" }),
    ]);
    expect((await createConfigMap(kapi.server, configMap("dry-none", "dry-none"), "?dryRun=All")).status).toBe(201);
    expect((await createConfigMap(kapi.server, configMap("dry-nodr", "dry-nodr"), "?dryRun=All")).status).toBe(201);
    const calls = hook.calls.filter((c) => c.path.startsWith("/dry-"));
    expect(calls.map((c) => [c.path, c.review.request.dryRun, c.review.request.options])).toEqual([
      ["/dry-none?timeout=5s", true, { kind: "CreateOptions", apiVersion: "meta.k8s.io/v1", dryRun: ["All"] }],
      ["/dry-nodr?timeout=5s", true, { kind: "CreateOptions", apiVersion: "meta.k8s.io/v1", dryRun: ["All"] }],
    ]);
    await unregister(kapi.server, "validating", "b-dry-run");
    const refused = await kapi.server.request({
      method: "POST",
      path: "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations",
      body: {
        apiVersion: "admissionregistration.k8s.io/v1",
        kind: "ValidatingWebhookConfiguration",
        metadata: { name: "b-some" },
        webhooks: [configMapWebhook(hook, "some.b.example.com", "some", { sideEffects: "Some" })],
      },
    });
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { message: string }).message).toBe(
      'ValidatingWebhookConfiguration.admissionregistration.k8s.io "b-some" is invalid: webhooks[0].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"',
    );
  });

  it("refuses a dry run for a webhook with side effects, one stored before v1 could refuse it", async () => {
    const kind = kapi.server.resources.kinds.servedKind("", "v1", "configmaps");
    if (kind === undefined) throw new Error("no configmaps");
    const a = {
      operation: "CREATE" as const,
      kind,
      namespace: "default",
      name: "dry-some",
      subresource: undefined,
      object: configMap("dry-some", "dry-some") as KubeObject,
      dryRun: true,
    };
    const matcher = new RequestMatcher(
      {
        api: kapi.server.resources,
        environment: admissionPolicyEnvironment,
        authorizer: { authorize: () => ({ decision: "allow", reason: "" }) },
      },
      new Map(),
      a,
    );
    const spec = configMapWebhook(hook, "some.b.example.com", "dry-some", { sideEffects: "Unknown" });
    const dispatched = dispatchValidating(
      [{ uid: "b-old/some.b.example.com/0", configurationName: "b-old", generation: "", spec: spec as never }],
      a,
      {
        matcher,
        transport: { credentials: () => ({}), resolveService: () => Promise.reject(new Error("no services")) },
        metrics: new AdmissionMetrics(),
      },
    );
    await expect(dispatched).rejects.toMatchObject({
      code: 400,
      message: 'admission webhook "some.b.example.com" does not support dry run',
    });
    expect(namesCalledAt("/dry-some")).toEqual([]);
  });

  it("applies a configuration change to the next request", async () => {
    expect((await createConfigMap(kapi.server, configMap("live-1", "live"))).status).toBe(201);
    await register(kapi.server, "validating", "b-live", [
      configMapWebhook(hook, "live.b.example.com", "live", {
        clientConfig: { url: `https://127.0.0.1:${hook.port}/deny`, caBundle: hook.caBundle },
      }),
    ]);
    expect((await createConfigMap(kapi.server, configMap("live-2", "live"))).status).toBe(400);
    await unregister(kapi.server, "validating", "b-live");
    let status = 0;
    await until(async () => {
      status = (await createConfigMap(kapi.server, configMap("live-3", "live"))).status;
      return status === 201;
    });
    expect(status).toBe(201);
  });
});
