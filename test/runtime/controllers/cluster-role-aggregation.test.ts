import { afterEach, describe, expect, it } from "vitest";
import { clusterRoleKind } from "../../../runtime/authz/rbac/rbac-index.js";
import { reconcileBootstrapPolicy } from "../../../runtime/authz/rbac/reconcile-bootstrap-policy.js";
import type { PolicyRule } from "../../../runtime/authz/rbac/rule-matches.js";
import {
  aggregatedRules,
  ClusterRoleAggregationController,
} from "../../../runtime/controllers/cluster-role-aggregation.js";
import type { KubeObject } from "../../../runtime/object/kube-object.js";
import { ResourceApi } from "../../../runtime/resources/resource-api.js";
import { MemoryStore } from "../../../runtime/storage/memory-store.js";
import { builtinKinds } from "../builtin-kinds.js";
import { eventually } from "./controller-harness.js";

const viewLabel = "rbac.authorization.k8s.io/aggregate-to-view";
const widgets: PolicyRule = { apiGroups: ["example.com"], resources: ["widgets"], verbs: ["get", "list", "watch"] };

interface Running {
  api: ResourceApi;
  store: MemoryStore;
  errors: unknown[];
  stop(): Promise<void>;
}

let running: Running | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

async function start(): Promise<Running> {
  const store = new MemoryStore();
  const api = new ResourceApi({ kinds: builtinKinds(), store });
  await reconcileBootstrapPolicy(api);
  const abort = new AbortController();
  const errors: unknown[] = [];
  const controller = new ClusterRoleAggregationController(api, {
    signal: abort.signal,
    log: (message, error) => errors.push({ message, error }),
  });
  const run = controller.run();
  running = {
    api,
    store,
    errors,
    async stop() {
      abort.abort();
      await run;
      api.close();
      await store.close();
    },
  };
  return running;
}

async function rulesOf(api: ResourceApi, name: string): Promise<PolicyRule[]> {
  return ((await api.get({ kind: clusterRoleKind, name })).object.rules ?? []) as PolicyRule[];
}

function clusterRole(name: string, labels: Record<string, string>, rules: PolicyRule[]): KubeObject {
  return { apiVersion: "rbac.authorization.k8s.io/v1", kind: "ClusterRole", metadata: { name, labels }, rules };
}

describe("clusterrole aggregation controller", () => {
  it("fills view, edit and admin from the default aggregate-to-* roles, nested", async () => {
    const { api } = await start();
    const toView = await rulesOf(api, "system:aggregate-to-view");
    const toEdit = await rulesOf(api, "system:aggregate-to-edit");
    const toAdmin = await rulesOf(api, "system:aggregate-to-admin");
    await eventually(async () => {
      expect(await rulesOf(api, "view")).toEqual(toView);
      // edit: system:aggregate-to-edit, then view (sorted by name).
      expect(await rulesOf(api, "edit")).toEqual([...toEdit, ...toView]);
      // admin: edit, then system:aggregate-to-admin.
      expect(await rulesOf(api, "admin")).toEqual([...toEdit, ...toView, ...toAdmin]);
    });
  });

  it("adds the rules of a role labelled aggregate-to-view later, and removes them with the label", async () => {
    const { api, errors } = await start();
    const toView = await rulesOf(api, "system:aggregate-to-view");
    await eventually(async () => expect(await rulesOf(api, "view")).toEqual(toView));

    await api.create({ kind: clusterRoleKind }, clusterRole("widget-viewer", { [viewLabel]: "true" }, [widgets]));
    // "widget-viewer" sorts after "system:aggregate-to-view".
    await eventually(async () => {
      expect(await rulesOf(api, "view")).toEqual([...toView, widgets]);
      expect(await rulesOf(api, "edit")).toContainEqual(widgets);
      expect(await rulesOf(api, "admin")).toContainEqual(widgets);
    });

    const role = (await api.get({ kind: clusterRoleKind, name: "widget-viewer" })).object;
    await api.update(
      { kind: clusterRoleKind, name: "widget-viewer" },
      { ...role, metadata: { ...(role.metadata as object), labels: {} } },
    );
    await eventually(async () => {
      expect(await rulesOf(api, "view")).toEqual(toView);
      expect(await rulesOf(api, "admin")).not.toContainEqual(widgets);
    });
    expect(errors).toEqual([]);
  });

  it("follows deletions and writes as clusterrole-aggregation-controller with apply", async () => {
    const { api } = await start();
    await api.create({ kind: clusterRoleKind }, clusterRole("a-widget-viewer", { [viewLabel]: "true" }, [widgets]));
    await eventually(async () => expect((await rulesOf(api, "view"))[0]).toEqual(widgets));
    const view = (await api.get({ kind: clusterRoleKind, name: "view" })).object;
    const managers = (view.metadata as { managedFields: { manager: string; operation: string }[] }).managedFields;
    expect(managers.map((m) => [m.manager, m.operation])).toContainEqual([
      "clusterrole-aggregation-controller",
      "Apply",
    ]);

    await api.delete({ kind: clusterRoleKind, name: "a-widget-viewer" });
    await eventually(async () => expect(await rulesOf(api, "view")).not.toContainEqual(widgets));
  });

  it("empties the rules of an aggregate whose last source goes away", async () => {
    const { api } = await start();
    await api.create(
      { kind: clusterRoleKind },
      {
        apiVersion: "rbac.authorization.k8s.io/v1",
        kind: "ClusterRole",
        metadata: { name: "widgets-aggregate" },
        aggregationRule: { clusterRoleSelectors: [{ matchLabels: { "example.com/widgets": "true" } }] },
      },
    );
    await api.create(
      { kind: clusterRoleKind },
      clusterRole("widget-source", { "example.com/widgets": "true" }, [widgets]),
    );
    await eventually(async () => expect(await rulesOf(api, "widgets-aggregate")).toEqual([widgets]));
    await api.delete({ kind: clusterRoleKind, name: "widget-source" });
    await eventually(async () => expect(await rulesOf(api, "widgets-aggregate")).toEqual([]));
  });

  it("writes only when the rules change", async () => {
    const { api, store } = await start();
    const toView = await rulesOf(api, "system:aggregate-to-view");
    await eventually(async () =>
      expect(await rulesOf(api, "admin")).toHaveLength((await rulesOf(api, "edit")).length + 2),
    );
    await eventually(async () => expect(await rulesOf(api, "view")).toEqual(toView));
    const settled = await store.currentRevision();
    // A change to a role nobody aggregates queues every aggregate; none of them is written.
    await api.create({ kind: clusterRoleKind }, clusterRole("unrelated", {}, [widgets]));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await store.currentRevision()).toBe(settled + 1);
  });
});

describe("aggregatedRules", () => {
  const get = (resource: string): PolicyRule => ({ apiGroups: [""], resources: [resource], verbs: ["get"] });
  const role = (name: string, labels: Record<string, string>, rules: PolicyRule[]) => ({
    metadata: { name, labels },
    rules,
  });

  it("takes selectors in order, matching roles by name, skips itself and rules already taken", () => {
    const aggregate = {
      metadata: { name: "agg", labels: { a: "true" } },
      aggregationRule: {
        clusterRoleSelectors: [
          { matchLabels: { b: "true" } },
          { matchExpressions: [{ key: "a", operator: "Exists" }] },
        ],
      },
      rules: [],
    };
    const all = [
      aggregate,
      role("zeta", { b: "true" }, [get("pods"), get("secrets")]),
      role("alpha", { b: "true" }, [get("secrets"), get("nodes")]),
      role("beta", { a: "x" }, [get("pods"), { ...get("pods"), resourceNames: [] }, get("services")]),
      role("other", {}, [get("configmaps")]),
    ];
    expect(aggregatedRules(aggregate, all)).toEqual([get("secrets"), get("nodes"), get("pods"), get("services")]);
  });

  it("is empty when nothing matches", () => {
    const aggregate = {
      metadata: { name: "agg" },
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { nobody: "true" } }] },
    };
    expect(aggregatedRules(aggregate, [aggregate])).toEqual([]);
  });
});
