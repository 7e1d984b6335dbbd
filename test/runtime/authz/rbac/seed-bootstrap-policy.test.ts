import { afterEach, describe, expect, it } from "vitest";
import { namespaceLifecycle } from "../../../../runtime/admission/namespace-lifecycle.js";
import {
  clusterRoleBindingKind,
  clusterRoleKind,
  roleBindingKind,
  roleKind,
} from "../../../../runtime/authz/rbac/rbac-index.js";
import { reconcileBootstrapPolicy } from "../../../../runtime/authz/rbac/reconcile-bootstrap-policy.js";
import { seedBootstrapPolicy } from "../../../../runtime/authz/rbac/seed-bootstrap-policy.js";
import { namespaces } from "../../../../runtime/controllers/core-kinds.js";
import type { KubeObject } from "../../../../runtime/object/kube-object.js";
import { ResourceApi } from "../../../../runtime/resources/resource-api.js";
import { MemoryStore } from "../../../../runtime/storage/memory-store.js";
import { builtinKinds } from "../../builtin-kinds.js";

interface Meta {
  name: string;
  namespace?: string;
  uid: string;
  creationTimestamp: string;
  resourceVersion: string;
  labels?: Record<string, string>;
  managedFields: { time: string }[];
}

let open: { api: ResourceApi; store: MemoryStore }[] = [];
afterEach(async () => {
  for (const { api, store } of open) {
    api.close();
    await store.close();
  }
  open = [];
});

async function serve(systemNamespaces = true): Promise<ResourceApi> {
  const store = new MemoryStore();
  const api = new ResourceApi({ kinds: builtinKinds(), store });
  api.addAdmission(namespaceLifecycle(api));
  open.push({ api, store });
  if (systemNamespaces) {
    for (const name of ["default", "kube-system", "kube-public", "kube-node-lease"]) {
      await api.create({ kind: namespaces }, { apiVersion: "v1", kind: "Namespace", metadata: { name } });
    }
  }
  return api;
}

const meta = (obj: KubeObject) => obj.metadata as Meta;

/** Every policy object by kind and key, without what each server makes its own. */
async function policyObjects(api: ResourceApi): Promise<Map<string, unknown>> {
  const objects = new Map<string, unknown>();
  for (const kind of [clusterRoleKind, clusterRoleBindingKind, roleKind, roleBindingKind]) {
    for (const { object } of (await api.list({ kind })).items) {
      const { uid, creationTimestamp, resourceVersion, managedFields, ...rest } = meta(object);
      expect(uid).toMatch(/^[0-9a-f-]{36}$/);
      for (const time of [creationTimestamp, ...managedFields.map((entry) => entry.time)]) {
        expect(time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      }
      const fields = managedFields.map(({ time: _, ...entry }) => entry);
      objects.set(`${kind.resource.plural} ${rest.namespace ?? ""}/${rest.name}`, {
        ...object,
        metadata: { ...rest, managedFields: fields },
      });
    }
  }
  return objects;
}

describe("seedBootstrapPolicy", () => {
  it("leaves a new store as reconciling the policy leaves it, with uids of its own", async () => {
    const reconciled = await serve();
    await reconcileBootstrapPolicy(reconciled);
    const first = await serve();
    await seedBootstrapPolicy(first);
    const second = await serve();
    await seedBootstrapPolicy(second);
    const expected = await policyObjects(reconciled);
    expect(expected.size).toBe(133);
    expect(await policyObjects(first)).toEqual(expected);
    expect(await policyObjects(second)).toEqual(expected);
    const uid = async (api: ResourceApi) => meta((await api.get({ kind: clusterRoleKind, name: "admin" })).object).uid;
    expect(await uid(first)).not.toBe(await uid(second));
  });

  it("creates the namespaces the policy's roles live in when they are missing", async () => {
    const api = await serve(false);
    await seedBootstrapPolicy(api);
    const names = (await api.list({ kind: namespaces })).items.map(({ object }) => meta(object).name);
    expect(names.sort()).toEqual(["kube-public", "kube-system"]);
  });

  it("reconciles an object that exists already instead of writing over it", async () => {
    const api = await serve();
    const rule = { apiGroups: [""], resources: ["pods"], verbs: ["get"] };
    await api.create(
      { kind: clusterRoleKind },
      { apiVersion: "rbac.authorization.k8s.io/v1", kind: "ClusterRole", metadata: { name: "view" }, rules: [rule] },
    );
    await seedBootstrapPolicy(api);
    const view = (await api.get({ kind: clusterRoleKind, name: "view" })).object;
    expect(view.rules).toContainEqual(rule);
    expect(meta(view).labels).toMatchObject({ "kubernetes.io/bootstrapping": "rbac-defaults" });
    expect(view.aggregationRule).toBeDefined();
  });
});
