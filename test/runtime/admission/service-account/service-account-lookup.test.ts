import { afterEach, describe, expect, it } from "vitest";
import type { AdmissionAttributes } from "../../../../runtime/admission/admission.js";
import { serviceAccountAdmission } from "../../../../runtime/admission/service-account/service-account-admission.js";
import { namespaces, serviceAccounts } from "../../../../runtime/controllers/core-kinds.js";
import type { KubeObject } from "../../../../runtime/object/kube-object.js";
import { ResourceApi } from "../../../../runtime/resources/resource-api.js";
import { MemoryStore } from "../../../../runtime/storage/memory-store.js";
import { builtinKinds } from "../../builtin-kinds.js";
import { failure, kind } from "../../controllers/controller-harness.js";

const podKind = kind("", "v1", "Pod");
let store: MemoryStore;
let api: ResourceApi;
afterEach(async () => {
  api.close();
  await store.close();
});

async function setup(): Promise<void> {
  store = new MemoryStore();
  api = new ResourceApi({ kinds: builtinKinds(), store });
  await api.create({ kind: namespaces }, { apiVersion: "v1", kind: "Namespace", metadata: { name: "team" } });
}

function createPod(spec: Record<string, unknown>): AdmissionAttributes {
  const object: KubeObject = { apiVersion: "v1", kind: "Pod", metadata: { name: "p", namespace: "team" }, spec };
  return {
    operation: "CREATE",
    kind: podKind,
    namespace: "team",
    name: "p",
    subresource: undefined,
    object,
    dryRun: false,
  };
}

function createAccount(name: string): Promise<unknown> {
  const body = { apiVersion: "v1", kind: "ServiceAccount", metadata: { name, namespace: "team" } };
  return api.create({ kind: serviceAccounts, namespace: "team" }, body);
}

/** The service account reads the plugin makes: "cache" for resourceVersion 0, else "live". */
function countReads(): string[] {
  const reads: string[] = [];
  const get = api.get.bind(api);
  api.get = (target, options) => {
    if (target.kind === serviceAccounts) reads.push(options?.resourceVersion === "0" ? "cache" : "live");
    return get(target, options);
  };
  return reads;
}

describe("ServiceAccount admission's account lookup", () => {
  it("reads the default account from the cache, then ten times live with one pause, then refuses", async () => {
    await setup();
    const reads = countReads();
    let drawn = 0;
    const plugin = serviceAccountAdmission(api, {
      retryIntervalMs: () => {
        drawn++;
        return 1;
      },
    });
    const refused = await failure(
      Promise.resolve(plugin.mutate?.(createPod({ containers: [{ name: "c", image: "nginx" }] }))),
    );
    expect(refused.status).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message:
        'pods "p" is forbidden: error looking up service account team/default: serviceaccount "default" not found',
      reason: "Forbidden",
      details: { name: "p", kind: "pods" },
      code: 403,
    });
    expect(reads).toEqual(["cache", ...Array(10).fill("live")]);
    expect(drawn).toBe(1);
  });

  it("finds the default account its controller creates while the pod waits", async () => {
    await setup();
    const reads = countReads();
    const plugin = serviceAccountAdmission(api, { retryIntervalMs: () => 20 });
    const a = createPod({ containers: [{ name: "c", image: "nginx" }] });
    const admitted = plugin.mutate?.(a);
    await new Promise((resolve) => setTimeout(resolve, 30));
    await createAccount("default");
    await admitted;
    expect(reads.length).toBeGreaterThan(2);
    expect(reads.length).toBeLessThan(11);
    const spec = a.object?.spec as { serviceAccountName: string; volumes: { name: string }[] };
    expect(spec.serviceAccountName).toBe("default");
    expect(spec.volumes[0]?.name).toMatch(/^kube-api-access-/);
  });

  it("reads any other account once from the cache and once live", async () => {
    await setup();
    const reads = countReads();
    const plugin = serviceAccountAdmission(api, { retryIntervalMs: () => 1000 });
    const refused = await failure(
      Promise.resolve(plugin.mutate?.(createPod({ serviceAccountName: "other", containers: [] }))),
    );
    expect(refused.status.message).toBe(
      'pods "p" is forbidden: error looking up service account team/other: serviceaccount "other" not found',
    );
    expect(reads).toEqual(["cache", "live"]);
  });

  it("admits from the cache without a live read (looked up twice: Admit ends with Validate, as kube's)", async () => {
    await setup();
    await createAccount("other");
    const reads = countReads();
    const plugin = serviceAccountAdmission(api);
    await plugin.mutate?.(createPod({ serviceAccountName: "other", containers: [] }));
    expect(reads).toEqual(["cache", "cache"]);
  });
});
