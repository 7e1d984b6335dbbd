import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { namespaceLifecycle } from "../../../../runtime/admission/namespace-lifecycle.js";
import { bootstrapPolicy } from "../../../../runtime/authz/rbac/bootstrap-policy.js";
import {
  clusterRoleBindingKind,
  clusterRoleKind,
  roleBindingKind,
  roleKind,
} from "../../../../runtime/authz/rbac/rbac-index.js";
import { reconcileBootstrapPolicy } from "../../../../runtime/authz/rbac/reconcile-bootstrap-policy.js";
import { namespaces } from "../../../../runtime/controllers/core-kinds.js";
import type { KubeObject } from "../../../../runtime/object/kube-object.js";
import type { ServedKind } from "../../../../runtime/registry/served-kind.js";
import { ResourceApi } from "../../../../runtime/resources/resource-api.js";
import { MemoryStore } from "../../../../runtime/storage/memory-store.js";
import { SqliteStore } from "../../../../runtime/storage/sqlite-store.js";
import type { Store } from "../../../../runtime/storage/store.js";
import { builtinKinds } from "../../builtin-kinds.js";

interface Server {
  api: ResourceApi;
  store: Store;
}

let open: Server[] = [];
afterEach(async () => {
  for (const { api, store } of open) {
    api.close();
    await store.close();
  }
  open = [];
});

function serve(store: Store = new MemoryStore()): Server {
  const api = new ResourceApi({ kinds: builtinKinds(), store });
  api.addAdmission(namespaceLifecycle(api));
  const server = { api, store };
  open.push(server);
  return server;
}

async function withSystemNamespaces(server: Server): Promise<Server> {
  for (const name of ["default", "kube-system", "kube-public", "kube-node-lease"]) {
    await server.api.create({ kind: namespaces }, { apiVersion: "v1", kind: "Namespace", metadata: { name } });
  }
  return server;
}

/** A server whose store already holds the default policy. */
async function bootstrapped(): Promise<Server> {
  const server = await withSystemNamespaces(serve());
  await reconcileBootstrapPolicy(server.api);
  return server;
}

async function get(api: ResourceApi, kind: ServedKind, name: string, namespace?: string): Promise<KubeObject> {
  return (await api.get({ kind, name, ...(namespace === undefined ? {} : { namespace }) })).object;
}

/** Writes the object `change` makes of the cluster-scoped object's current state. */
async function edit(api: ResourceApi, kind: ServedKind, name: string, change: (obj: KubeObject) => KubeObject) {
  await api.update({ kind, name }, change(await get(api, kind, name)));
}

const meta = (obj: KubeObject) =>
  obj.metadata as {
    uid: string;
    resourceVersion: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    managedFields?: { manager: string; operation: string }[];
  };

async function names(api: ResourceApi, kind: ServedKind): Promise<string[]> {
  const { items } = await api.list({ kind });
  return items.map((i) => {
    const m = i.object.metadata as { name: string; namespace?: string };
    return m.namespace === undefined ? m.name : `${m.namespace}/${m.name}`;
  });
}

describe("reconcileBootstrapPolicy", () => {
  it("creates every default role and binding, written by kube-apiserver", async () => {
    const { api } = await bootstrapped();
    expect((await names(api, clusterRoleKind)).sort()).toEqual(
      bootstrapPolicy.clusterRoles.map((r) => r.metadata.name).sort(),
    );
    expect(await names(api, clusterRoleBindingKind)).toHaveLength(50);
    expect((await names(api, roleKind)).sort()).toEqual(
      bootstrapPolicy.roles.map((r) => `${r.metadata.namespace}/${r.metadata.name}`).sort(),
    );
    expect(await names(api, roleBindingKind)).toHaveLength(7);
    const admin = await get(api, clusterRoleKind, "cluster-admin");
    expect(meta(admin).labels).toEqual({ "kubernetes.io/bootstrapping": "rbac-defaults" });
    expect(meta(admin).managedFields?.map((f) => [f.manager, f.operation])).toEqual([["kube-apiserver", "Update"]]);
  });

  it("writes nothing when everything is in place", async () => {
    const { api, store } = await bootstrapped();
    const revision = await store.currentRevision();
    await reconcileBootstrapPolicy(api);
    expect(await store.currentRevision()).toBe(revision);
  });

  it("creates kube-system and kube-public first when they are missing", async () => {
    const { api } = serve();
    await reconcileBootstrapPolicy(api);
    expect((await names(api, namespaces)).sort()).toEqual(["kube-public", "kube-system"]);
    expect(await get(api, roleKind, "system:controller:bootstrap-signer", "kube-public")).toBeDefined();
  });

  it("puts back missing rules, labels and annotations of an autoupdating role and keeps what was added", async () => {
    const { api } = await bootstrapped();
    const custom = { apiGroups: [""], resources: ["pods"], verbs: ["get"] };
    await edit(api, clusterRoleKind, "system:basic-user", (role) => ({
      ...role,
      metadata: { ...meta(role), labels: { team: "a" }, annotations: { note: "mine" } },
      rules: [
        { apiGroups: ["authorization.k8s.io"], resources: ["selfsubjectaccessreviews"], verbs: ["create"] },
        custom,
      ],
    }));

    await reconcileBootstrapPolicy(api);
    const after = await get(api, clusterRoleKind, "system:basic-user");
    expect(meta(after).labels).toEqual({ team: "a", "kubernetes.io/bootstrapping": "rbac-defaults" });
    expect(meta(after).annotations).toEqual({ note: "mine", "rbac.authorization.kubernetes.io/autoupdate": "true" });
    // Missing rules come back broken down into one verb and one resource each, after the existing ones.
    expect(after.rules).toEqual([
      { apiGroups: ["authorization.k8s.io"], resources: ["selfsubjectaccessreviews"], verbs: ["create"] },
      custom,
      { apiGroups: ["authorization.k8s.io"], resources: ["selfsubjectrulesreviews"], verbs: ["create"] },
      { apiGroups: ["authentication.k8s.io"], resources: ["selfsubjectreviews"], verbs: ["create"] },
    ]);
  });

  it("counts a rule as present when a broader existing rule covers it", async () => {
    const { api, store } = await bootstrapped();
    await edit(api, clusterRoleKind, "system:kube-dns", (role) => ({
      ...role,
      rules: [{ apiGroups: ["*"], resources: ["*"], verbs: ["*"] }],
    }));
    const revision = await store.currentRevision();
    await reconcileBootstrapPolicy(api);
    expect(await store.currentRevision()).toBe(revision);
  });

  it("leaves alone what is annotated autoupdate false", async () => {
    const { api, store } = await bootstrapped();
    const annotations = { "rbac.authorization.kubernetes.io/autoupdate": "false" };
    await edit(api, clusterRoleKind, "system:discovery", (role) => ({
      ...role,
      metadata: { ...meta(role), labels: {}, annotations },
      rules: [{ nonResourceURLs: ["/version"], verbs: ["get"] }],
    }));
    await edit(api, clusterRoleBindingKind, "system:discovery", (binding) => ({
      ...binding,
      metadata: { ...meta(binding), annotations },
      subjects: [{ apiGroup: "rbac.authorization.k8s.io", kind: "User", name: "alice" }],
    }));
    const revision = await store.currentRevision();
    await reconcileBootstrapPolicy(api);
    expect(await store.currentRevision()).toBe(revision);
  });

  it("adds missing subjects and keeps the others", async () => {
    const { api } = await bootstrapped();
    const alice = { apiGroup: "rbac.authorization.k8s.io", kind: "User", name: "alice" };
    const authenticated = { apiGroup: "rbac.authorization.k8s.io", kind: "Group", name: "system:authenticated" };
    await edit(api, clusterRoleBindingKind, "system:public-info-viewer", (binding) => ({
      ...binding,
      subjects: [alice, authenticated],
    }));
    await reconcileBootstrapPolicy(api);
    expect((await get(api, clusterRoleBindingKind, "system:public-info-viewer")).subjects).toEqual([
      alice,
      authenticated,
      { apiGroup: "rbac.authorization.k8s.io", kind: "Group", name: "system:unauthenticated" },
    ]);
  });

  it("creates again a binding whose roleRef differs", async () => {
    const { api } = await bootstrapped();
    const target = { kind: roleBindingKind, namespace: "kube-system", name: "system:controller:token-cleaner" };
    await api.delete(target);
    await api.create(target, {
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "RoleBinding",
      metadata: { name: "system:controller:token-cleaner", namespace: "kube-system" },
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "other" },
      subjects: [{ apiGroup: "rbac.authorization.k8s.io", kind: "User", name: "alice" }],
    });
    const replaced = await get(api, roleBindingKind, "system:controller:token-cleaner", "kube-system");

    await reconcileBootstrapPolicy(api);
    const after = await get(api, roleBindingKind, "system:controller:token-cleaner", "kube-system");
    expect(meta(after).uid).not.toBe(meta(replaced).uid);
    expect(after.roleRef).toEqual({
      apiGroup: "rbac.authorization.k8s.io",
      kind: "Role",
      name: "system:controller:token-cleaner",
    });
    expect(after.subjects).toEqual([{ kind: "ServiceAccount", name: "token-cleaner", namespace: "kube-system" }]);
  });

  it("keeps an aggregated role's rules and selectors, puts back its aggregation and removes one kube does not expect", async () => {
    const { api } = await bootstrapped();
    const aggregatedRules = [{ apiGroups: [""], resources: ["pods"], verbs: ["get"] }];
    const extraSelector = { matchLabels: { "example.com/aggregate-to-admin": "true" } };
    await edit(api, clusterRoleKind, "admin", (admin) => ({
      ...admin,
      rules: aggregatedRules,
      aggregationRule: { clusterRoleSelectors: [extraSelector] },
    }));
    const heapster = await get(api, clusterRoleKind, "system:heapster");
    await edit(api, clusterRoleKind, "system:heapster", (role) => ({
      ...role,
      aggregationRule: { clusterRoleSelectors: [extraSelector] },
    }));

    await reconcileBootstrapPolicy(api);
    const after = await get(api, clusterRoleKind, "admin");
    expect(after.rules).toEqual(aggregatedRules);
    expect(after.aggregationRule).toEqual({
      clusterRoleSelectors: [
        extraSelector,
        { matchLabels: { "rbac.authorization.k8s.io/aggregate-to-admin": "true" } },
      ],
    });
    const heapsterAfter = await get(api, clusterRoleKind, "system:heapster");
    expect(heapsterAfter.aggregationRule).toBeUndefined();
    expect(heapsterAfter.rules).toEqual(heapster.rules);
  });
});

describe("reconcileBootstrapPolicy over SQLite", () => {
  const dir = mkdtempSync(join(tmpdir(), "kapi-rbac-bootstrap-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("finds everything in place after a restart and writes nothing", async () => {
    const path = join(dir, "state.db");
    const first = await withSystemNamespaces(serve(SqliteStore.open(path)));
    await reconcileBootstrapPolicy(first.api);
    first.api.close();
    await first.store.close();
    open = [];

    const second = serve(SqliteStore.open(path));
    const revision = await second.store.currentRevision();
    await reconcileBootstrapPolicy(second.api);
    expect(await second.store.currentRevision()).toBe(revision);
    expect(await names(second.api, clusterRoleKind)).toHaveLength(bootstrapPolicy.clusterRoles.length);
  });
});
