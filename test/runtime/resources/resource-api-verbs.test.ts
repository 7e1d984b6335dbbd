// Patch, apply and the scale subresource in-process, through a ResourceApi built as startServer builds it
// (its kinds, the admission chain, the CustomResourceDefinition controller): each patch type, apply's
// create, conflict and force, and Scale reads and writes, on built-in kinds and on a custom resource. The
// answers are those the HTTP tests pin (test/runtime/handlers/patch-handler.test.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Authorizer } from "../../../runtime/access/authorizer.js";
import { admissionChain } from "../../../runtime/admission/admission-chain.js";
import { AdmissionMetrics } from "../../../runtime/admission/admission-metrics.js";
import { CrdController } from "../../../runtime/crd/crd-controller.js";
import type { KubeObject } from "../../../runtime/object/kube-object.js";
import { OpenApiDocuments } from "../../../runtime/openapi/openapi-documents.js";
import type { ServedKind } from "../../../runtime/registry/served-kind.js";
import { ResourceApi, type Target } from "../../../runtime/resources/resource-api.js";
import { MemoryStore } from "../../../runtime/storage/memory-store.js";
import { builtinKinds } from "../builtin-kinds.js";
import { eventually, failure } from "../controllers/controller-harness.js";

interface Entry {
  manager: string;
  operation: string;
  subresource?: string;
  apiVersion: string;
  fieldsV1: Record<string, unknown>;
}

const allow: Authorizer = {
  authorize: () => ({ decision: "allow", reason: "" }),
  rulesFor: () => ({ resourceRules: [], nonResourceRules: [], incomplete: false }),
};

const entries = (obj: KubeObject) => ((obj.metadata as { managedFields?: Entry[] }).managedFields ?? []) as Entry[];
const managers = (obj: KubeObject) =>
  entries(obj).map((e) => `${e.manager}/${e.operation}${e.subresource ? `/${e.subresource}` : ""}`);
const resourceVersion = (obj: KubeObject) => (obj.metadata as { resourceVersion: string }).resourceVersion;

const configMap = (name: string, data: Record<string, string>) => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name },
  data,
});

const crontabs = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: crontabs.stable.example.com}
spec:
  group: stable.example.com
  scope: Namespaced
  names: {plural: crontabs, singular: crontab, kind: CronTab}
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      status: {}
      scale: {specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties: {cronSpec: {type: string}, replicas: {type: integer}}
          status:
            type: object
            properties: {replicas: {type: integer}}
`;

describe("ResourceApi verbs in-process", () => {
  const store = new MemoryStore();
  const api = new ResourceApi({ kinds: builtinKinds(), store });
  for (const plugin of admissionChain({
    resources: api,
    authorizer: () => allow,
    metrics: new AdmissionMetrics(),
    log: () => {},
  }))
    api.addAdmission(plugin);
  const stopping = new AbortController();
  let definitions: Promise<void>;
  const served = (group: string, version: string, resource: string): ServedKind => {
    const kind = api.kinds.servedKind(group, version, resource);
    if (kind === undefined) throw new Error(`${group}/${version} ${resource} is not served`);
    return kind;
  };
  const configMaps = served("", "v1", "configmaps");
  const deployments = served("apps", "v1", "deployments");
  const cm = (name: string): Target => ({ kind: configMaps, namespace: "p", name });

  beforeAll(async () => {
    const openapi = new OpenApiDocuments(api.kinds.builtinTurnedOff(), api.kinds.groupVersions());
    const controller = new CrdController(api, { signal: stopping.signal, log: () => {}, openapi });
    definitions = controller.run();
    await api.create({ kind: served("", "v1", "namespaces") }, { metadata: { name: "p" } });
    const crds = { kind: served("apiextensions.k8s.io", "v1", "customresourcedefinitions") };
    await api.apply({ ...crds, name: "crontabs.stable.example.com" }, crontabs, { fieldManager: "test" });
    await eventually(() => served("stable.example.com", "v1", "crontabs"));
  });
  afterAll(async () => {
    stopping.abort();
    await definitions;
    api.close();
    await store.close();
  });

  it("JSON-patches, and takes a patched resourceVersion other than the stored one as a precondition", async () => {
    await api.create(cm("j"), configMap("j", { a: "1" }));
    const { object } = await api.patch(cm("j"), "json", [{ op: "replace", path: "/data/a", value: "2" }]);
    expect(object.data).toEqual({ a: "2" });
    const stale = await failure(
      api.patch(cm("j"), "json", [
        { op: "replace", path: "/metadata/resourceVersion", value: "1" },
        { op: "replace", path: "/data/a", value: "3" },
      ]),
    );
    expect(stale.code).toBe(409);
    expect(stale.message).toBe(
      'Operation cannot be fulfilled on configmaps "j": the object has been modified; please apply your changes to the latest version and try again',
    );
    const failed = await failure(api.patch(cm("j"), "json", [{ op: "test", path: "/data/a", value: "9" }]));
    expect([failed.code, failed.message]).toEqual([
      422,
      "the server rejected our request due to an error in our request",
    ]);
  });

  it("merge-patches as its fieldManager, with field validation's warnings or Strict's 422", async () => {
    await api.create(cm("m"), configMap("m", { a: "1" }), { owner: { manager: "my-tool" } });
    const patched = await api.patch(cm("m"), "merge", { data: { b: "2" }, foo: 1 }, { fieldManager: "patcher" });
    expect(patched.object.data).toEqual({ a: "1", b: "2" });
    expect(patched.warnings).toEqual(['unknown field "foo"']);
    expect(managers(patched.object)).toEqual(["my-tool/Update", "patcher/Update"]);
    const strict = await failure(api.patch(cm("m"), "merge", '{"foo":1}', { fieldValidation: "Strict" }));
    expect(strict.code).toBe(422);
    expect(strict.message).toContain('strict decoding error: unknown field "foo"');
    const dry = await api.patch(cm("m"), "merge", { data: { a: "x" } }, { dryRun: true });
    expect(dry.object.data).toEqual({ a: "x", b: "2" });
    expect((await api.get(cm("m"))).object.data).toEqual({ a: "1", b: "2" });
  });

  it("answers a missing object 404 before it reads the patch", async () => {
    const missing = await failure(api.patch(cm("none"), "merge", "not json"));
    expect([missing.code, missing.message]).toEqual([404, 'configmaps "none" not found']);
  });

  it("strategic-merge-patches a built-in kind by its merge keys", async () => {
    const target = { kind: deployments, namespace: "p", name: "sm" };
    await api.create(target, {
      metadata: { name: "sm" },
      spec: {
        selector: { matchLabels: { app: "sm" } },
        template: { metadata: { labels: { app: "sm" } }, spec: { containers: [{ name: "c", image: "i:1" }] } },
      },
    });
    const { object } = await api.patch(target, "strategic", {
      spec: {
        template: {
          spec: {
            containers: [
              { name: "c", image: "i:2" },
              { name: "side", image: "s" },
            ],
          },
        },
      },
    });
    const containers = (object.spec as { template: { spec: { containers: { name: string; image: string }[] } } })
      .template.spec.containers;
    expect(containers.map((c) => `${c.name}=${c.image}`)).toEqual(["c=i:2", "side=s"]);
  });

  it("applies: creates, updates, answers a conflict 409 with a cause per field, and lets force take it", async () => {
    const created = await api.apply(cm("a"), configMap("a", { k: "1", j: "1" }), { fieldManager: "tester" });
    expect(created.created).toBe(true);
    expect(managers(created.object)).toEqual(["tester/Apply"]);
    expect(entries(created.object)[0]?.fieldsV1).toEqual({ "f:data": { "f:j": {}, "f:k": {} } });
    const conflict = await failure(api.apply(cm("a"), configMap("a", { k: "2" }), { fieldManager: "other" }));
    expect(conflict.code).toBe(409);
    expect(conflict.message).toBe('Apply failed with 1 conflict: conflict with "tester": .data.k');
    expect(conflict.status.details?.causes).toEqual([
      { reason: "FieldManagerConflict", message: 'conflict with "tester"', field: ".data.k" },
    ]);
    const forced = await api.apply(cm("a"), configMap("a", { k: "2" }), { fieldManager: "other", force: true });
    expect(forced.created).toBe(false);
    expect(managers(forced.object).sort()).toEqual(["other/Apply", "tester/Apply"]);
    // tester no longer applies j: released and, owned by nobody else, removed.
    const released = await api.apply(cm("a"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n", {
      fieldManager: "tester",
    });
    expect(released.object.data).toEqual({ k: "2" });
  });

  it("refuses a strategic merge patch of a custom resource with kube's 415", async () => {
    const target = { kind: served("stable.example.com", "v1", "crontabs"), namespace: "p", name: "x" };
    const refused = await failure(api.patch(target, "strategic", {}));
    expect([refused.code, refused.message]).toEqual([
      415,
      "the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml",
    ]);
  });

  it("patches and applies a custom resource", async () => {
    const target = { kind: served("stable.example.com", "v1", "crontabs"), namespace: "p", name: "night" };
    const crontab = (spec: Record<string, unknown>) => ({
      apiVersion: "stable.example.com/v1",
      kind: "CronTab",
      metadata: { name: "night" },
      spec,
    });
    const created = await api.apply(target, crontab({ cronSpec: "0 0 * * *", replicas: 1 }), { fieldManager: "a" });
    expect(created.created).toBe(true);
    const merged = await api.patch(target, "merge", { spec: { cronSpec: "0 1 * * *", bogus: true } });
    expect(merged.object.spec).toEqual({ cronSpec: "0 1 * * *", replicas: 1 });
    expect(merged.warnings).toEqual(['unknown field "spec.bogus"']);
    const json = await api.patch(target, "json", [{ op: "replace", path: "/spec/replicas", value: 2 }]);
    expect((json.object.spec as { replicas: number }).replicas).toBe(2);
    const conflict = await failure(api.apply(target, crontab({ cronSpec: "x" }), { fieldManager: "b" }));
    expect(conflict.message).toBe(
      'Apply failed with 1 conflict: conflict with "kube-controller-manager" using stable.example.com/v1: .spec.cronSpec',
    );
    const forced = await api.apply(target, crontab({ cronSpec: "x" }), { fieldManager: "b", force: true });
    expect((forced.object.spec as { cronSpec: string }).cronSpec).toBe("x");
  });

  it("reads and writes the Scale of a Deployment and of a custom resource", async () => {
    const target = { kind: deployments, namespace: "p", name: "s" };
    await api.apply(
      target,
      {
        apiVersion: "apps/v1",
        kind: "Deployment",
        metadata: { name: "s" },
        spec: {
          replicas: 1,
          selector: { matchLabels: { app: "s" } },
          template: { metadata: { labels: { app: "s" } }, spec: { containers: [{ name: "c", image: "i" }] } },
        },
      },
      { fieldManager: "tester" },
    );
    const scale = await api.getScale(target);
    expect(scale).toMatchObject({
      apiVersion: "autoscaling/v1",
      kind: "Scale",
      metadata: { name: "s", namespace: "p" },
      spec: { replicas: 1 },
      status: { replicas: 0, selector: "app=s" },
    });
    const updated = await api.updateScale(target, { ...scale, spec: { replicas: 3 } }, { owner: { manager: "hpa" } });
    expect(updated.spec).toEqual({ replicas: 3 });
    const parent = (await api.get(target)).object;
    expect((parent.spec as { replicas: number }).replicas).toBe(3);
    expect(managers(parent)).toEqual(["tester/Apply", "hpa/Update/scale"]);
    const stale = await failure(api.updateScale(target, { ...scale, spec: { replicas: 4 } }));
    expect(stale.code).toBe(409);
    const negative = await failure(api.updateScale(target, { ...updated, spec: { replicas: -1 } }));
    expect([negative.code, negative.message]).toEqual([
      422,
      'Scale.autoscaling "s" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0',
    ]);

    const scaleTarget = { ...target, subresource: "scale" };
    const patched = await api.patch(scaleTarget, "merge", { spec: { replicas: 5 } }, { fieldManager: "patcher" });
    expect(patched.object.spec).toEqual({ replicas: 5 });
    const scaleConfig = (replicas: number) => ({
      apiVersion: "autoscaling/v1",
      kind: "Scale",
      metadata: { name: "s" },
      spec: { replicas },
    });
    const conflict = await failure(api.apply(scaleTarget, scaleConfig(4), { fieldManager: "autoscaler" }));
    expect(conflict.message).toBe(
      'Apply failed with 1 conflict: conflict with "patcher" with subresource "scale" using autoscaling/v1: .spec.replicas',
    );
    const forced = await api.apply(scaleTarget, scaleConfig(4), { fieldManager: "autoscaler", force: true });
    expect(forced.object.spec).toEqual({ replicas: 4 });
    const after = (await api.get(target)).object;
    expect(entries(after).find((e) => e.manager === "autoscaler")).toMatchObject({
      operation: "Apply",
      subresource: "scale",
      apiVersion: "apps/v1",
    });

    const custom = { kind: served("stable.example.com", "v1", "crontabs"), namespace: "p", name: "night" };
    const customScale = await api.getScale(custom);
    expect(customScale.spec).toEqual({ replicas: 2 });
    await api.updateScale(custom, { ...customScale, spec: { replicas: 6 } });
    expect(((await api.get(custom)).object.spec as { replicas: number }).replicas).toBe(6);
    expect(resourceVersion(await api.getScale(custom))).not.toBe(resourceVersion(customScale));
    const none = await failure(api.getScale(cm("a")));
    expect([none.code, none.message]).toEqual([404, 'configmaps "a" not found']);
  });
});
