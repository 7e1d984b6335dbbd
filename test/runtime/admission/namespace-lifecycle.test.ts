import { afterEach, describe, expect, it } from "vitest";
import type { AdmissionAttributes, Operation } from "../../../runtime/admission/admission.js";
import { namespaceLifecycle } from "../../../runtime/admission/namespace-lifecycle.js";
import type { KubeObject } from "../../../runtime/object/kube-object.js";
import type { ServedKind } from "../../../runtime/registry/served-kind.js";
import { ResourceApi } from "../../../runtime/resources/resource-api.js";
import { encodeStored } from "../../../runtime/resources/resource-storage.js";
import { MemoryStore } from "../../../runtime/storage/memory-store.js";
import { builtinKinds } from "../builtin-kinds.js";
import { configMapKind, failure, kind, namespaceKind } from "../controllers/controller-harness.js";

const clusterRoleKind = kind("rbac.authorization.k8s.io", "v1", "ClusterRole");
const deploymentKind = kind("apps", "v1", "Deployment");

let store: MemoryStore;
let api: ResourceApi;
afterEach(async () => {
  api.close();
  await store.close();
});

/** Namespaces written straight to the store, as the server would have left them. */
async function setup(namespaces: Record<string, { phase: string; deleting?: boolean }>) {
  store = new MemoryStore();
  api = new ResourceApi({ kinds: builtinKinds(), store });
  for (const [name, { phase, deleting }] of Object.entries(namespaces)) {
    const obj: KubeObject = {
      apiVersion: "v1",
      kind: "Namespace",
      metadata: { name, uid: `uid-${name}`, ...(deleting ? { deletionTimestamp: "2026-01-01T00:00:00Z" } : {}) },
      spec: { finalizers: ["kubernetes"] },
      status: { phase },
    };
    await store.create(`/registry/core/namespaces/${name}`, encodeStored(obj));
  }
  return namespaceLifecycle(api);
}

function attributes(
  operation: Operation,
  kind: ServedKind,
  namespace: string | undefined,
  object?: KubeObject,
  name = "",
): AdmissionAttributes {
  return {
    operation,
    kind,
    namespace,
    name,
    subresource: undefined,
    ...(object === undefined ? {} : { object }),
    dryRun: false,
  };
}

async function admit(plugin: ReturnType<typeof namespaceLifecycle>, a: AdmissionAttributes): Promise<void> {
  await plugin.mutate?.(a);
  await plugin.validate?.(a);
}

describe("NamespaceLifecycle admission", () => {
  it("admits writes into an active namespace and cluster-scoped writes anywhere", async () => {
    const plugin = await setup({ team: { phase: "Active" } });
    await admit(plugin, attributes("CREATE", configMapKind, "team", { metadata: { name: "a" } }));
    await admit(plugin, attributes("UPDATE", configMapKind, "team", { metadata: { name: "a" } }));
    await admit(plugin, attributes("CREATE", clusterRoleKind, undefined, { metadata: { name: "r" } }));
    await admit(plugin, attributes("CREATE", namespaceKind, undefined, { metadata: { name: "new" } }));
  });

  it("refuses creates and updates in a namespace that does not exist, but not deletes", async () => {
    const plugin = await setup({});
    for (const operation of ["CREATE", "UPDATE"] as const) {
      const refused = await failure(
        admit(plugin, attributes(operation, configMapKind, "gone", { metadata: { name: "a" } })),
      );
      expect(refused.status).toEqual({
        kind: "Status",
        apiVersion: "v1",
        metadata: {},
        status: "Failure",
        message: 'namespaces "gone" not found',
        reason: "NotFound",
        details: { name: "gone", kind: "namespaces" },
        code: 404,
      });
    }
    await admit(plugin, attributes("DELETE", configMapKind, "gone", undefined, "a"));
  });

  it("refuses creates in a terminating namespace with kube's status, and admits updates and deletes there", async () => {
    const plugin = await setup({ ending: { phase: "Terminating", deleting: true } });
    const refused = await failure(
      admit(plugin, attributes("CREATE", deploymentKind, "ending", { metadata: { generateName: "web-" } })),
    );
    expect(refused.status).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message:
        'deployments.apps "web-" is forbidden: unable to create new content in namespace ending because it is being terminated',
      reason: "Forbidden",
      details: {
        name: "web-",
        group: "apps",
        kind: "deployments",
        causes: [
          {
            reason: "NamespaceTerminating",
            message: "namespace ending is being terminated",
            field: "metadata.namespace",
          },
        ],
      },
      code: 403,
    });
    const unnamed = await failure(admit(plugin, attributes("CREATE", configMapKind, "ending", { metadata: {} })));
    expect(unnamed.message).toBe(
      'configmaps "Unknown" is forbidden: unable to create new content in namespace ending because it is being terminated',
    );
    await admit(plugin, attributes("UPDATE", configMapKind, "ending", { metadata: { name: "a" } }));
    await admit(plugin, attributes("DELETE", configMapKind, "ending", undefined, "a"));
  });

  it("treats a namespace with a deletionTimestamp as terminating before its phase says so", async () => {
    const plugin = await setup({ ending: { phase: "Active", deleting: true } });
    const refused = await failure(
      admit(plugin, attributes("CREATE", configMapKind, "ending", { metadata: { name: "a" } })),
    );
    expect(refused.code).toBe(403);
  });

  it("refuses to delete default, kube-system and kube-public", async () => {
    const plugin = await setup({});
    for (const name of ["default", "kube-system", "kube-public"]) {
      const refused = await failure(admit(plugin, attributes("DELETE", namespaceKind, undefined, undefined, name)));
      expect(refused.status).toEqual({
        kind: "Status",
        apiVersion: "v1",
        metadata: {},
        status: "Failure",
        message: `namespaces "${name}" is forbidden: this namespace may not be deleted`,
        reason: "Forbidden",
        details: { name, kind: "namespaces" },
        code: 403,
      });
    }
    await admit(plugin, attributes("DELETE", namespaceKind, undefined, undefined, "kube-node-lease"));
  });

  it("admits local access reviews whatever the namespace", async () => {
    const plugin = await setup({});
    const reviews = kind("authorization.k8s.io", "v1", "LocalSubjectAccessReview");
    await admit(plugin, attributes("CREATE", reviews, "nowhere", { metadata: {} }));
  });
});
