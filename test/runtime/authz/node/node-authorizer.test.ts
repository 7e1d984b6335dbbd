import { describe, expect, it } from "vitest";
import type { Attributes } from "../../../../runtime/access/authorizer.js";
import { NodeAuthorizer, nodeIdentity } from "../../../../runtime/authz/node/node-authorizer.js";
import { NodeGraph } from "../../../../runtime/authz/node/node-graph.js";
import { resourceRequest } from "../authz-fixtures.js";
import { persistentVolume, pod } from "./node-fixtures.js";

const node1 = { name: "system:node:n1", groups: ["system:nodes", "system:authenticated"] };
const allow = { decision: "allow", reason: "" };

function graph(): NodeGraph {
  const g = new NodeGraph();
  g.addPod(
    pod("ns", "web", "n1", {
      serviceAccountName: "runner",
      volumes: [
        { name: "s", secret: { secretName: "mine" } },
        { name: "m", configMap: { name: "settings" } },
        { name: "d", persistentVolumeClaim: { claimName: "data" } },
      ],
      resourceClaims: [{ name: "gpu", resourceClaimName: "gpu-claim" }],
    }),
  );
  g.addPod(pod("ns", "db", "n2", { volumes: [{ name: "s", secret: { secretName: "theirs" } }] }));
  g.addPersistentVolume(persistentVolume("pv-data", { namespace: "ns", name: "data" }));
  g.addNodeLocal("volumeattachment", "va1", "n1");
  g.addNodeLocal("resourceslice", "slice-n1", "n1");
  return g;
}

const auth = new NodeAuthorizer(graph());
const ask = (fields: Partial<Attributes>, user = node1) => auth.authorize(resourceRequest(user, fields));
const selector = (field: string, value: string, operator: "=" | "!=" = "=") => ({
  fieldSelector: { requirements: [{ field, operator, value }] },
});

describe("nodeIdentity", () => {
  it("needs both the name prefix and the system:nodes group", () => {
    expect(nodeIdentity(node1)).toBe("n1");
    expect(nodeIdentity({ name: "system:node:n1", groups: [] })).toBeUndefined();
    expect(nodeIdentity({ name: "jane", groups: ["system:nodes"] })).toBeUndefined();
    expect(nodeIdentity({ name: "system:node:", groups: ["system:nodes"] })).toBe("");
  });
});

describe("Node authorizer", () => {
  it("has no opinion for other users and refuses a node user without a name", () => {
    expect(ask({ resource: "secrets", name: "mine" }, { name: "jane", groups: [] })).toEqual({
      decision: "noOpinion",
      reason: "",
    });
    expect(ask({ resource: "secrets", name: "mine" }, { name: "system:node:", groups: ["system:nodes"] })).toEqual({
      decision: "noOpinion",
      reason: 'unknown node for user "system:node:"',
    });
  });

  it("lets a node read the secrets and configmaps of its pods, one by one", () => {
    expect(ask({ resource: "secrets", namespace: "ns", name: "mine" })).toEqual(allow);
    expect(ask({ resource: "configmaps", namespace: "ns", name: "settings", verb: "watch" })).toEqual(allow);
    expect(ask({ resource: "secrets", namespace: "ns", name: "theirs" })).toEqual({
      decision: "noOpinion",
      reason: "no relationship found between node 'n1' and this object",
    });
    expect(ask({ resource: "secrets", namespace: "ns", name: "", verb: "list" })).toEqual({
      decision: "noOpinion",
      reason: "No Object name found",
    });
    expect(ask({ resource: "secrets", namespace: "ns", name: "mine", verb: "update" }).reason).toBe(
      "can only read resources of this type",
    );
    expect(ask({ resource: "secrets", namespace: "", name: "mine" }).reason).toBe(
      "can only read namespaced object of this type",
    );
  });

  it("lets a node get its PVCs, their PVs, resource claims and attachments, and update PVC status", () => {
    expect(ask({ resource: "persistentvolumeclaims", namespace: "ns", name: "data" })).toEqual(allow);
    expect(ask({ resource: "persistentvolumes", namespace: "", name: "pv-data" })).toEqual(allow);
    expect(ask({ resource: "persistentvolumeclaims", namespace: "ns", name: "data", verb: "list" }).reason).toBe(
      "can only get individual resources of this type",
    );
    expect(
      ask({ resource: "persistentvolumeclaims", subresource: "status", namespace: "ns", name: "data", verb: "patch" }),
    ).toEqual(allow);
    expect(
      ask({ resource: "persistentvolumeclaims", subresource: "status", namespace: "ns", name: "data", verb: "get" })
        .decision,
    ).toBe("noOpinion");
    expect(
      ask({ apiGroup: "resource.k8s.io", resource: "resourceclaims", namespace: "ns", name: "gpu-claim" }),
    ).toEqual(allow);
    expect(ask({ apiGroup: "storage.k8s.io", resource: "volumeattachments", namespace: "", name: "va1" })).toEqual(
      allow,
    );
  });

  it("lets a node create tokens for (and read) its pods' service accounts", () => {
    const sa = { resource: "serviceaccounts", namespace: "ns", name: "runner" };
    expect(ask({ ...sa, verb: "create", subresource: "token" })).toEqual(allow);
    expect(ask({ ...sa, verb: "get" })).toEqual(allow);
    expect(ask({ ...sa, name: "default", verb: "create", subresource: "token" }).decision).toBe("noOpinion");
    expect(ask({ ...sa, verb: "create" }).reason).toBe("can only create token subresource of serviceaccount");
    expect(ask({ ...sa, verb: "delete" }).reason).toBe("can only create tokens for individual service accounts");
  });

  it("limits leases to the node's own in kube-node-lease, and CSINodes to its own", () => {
    const lease = { apiGroup: "coordination.k8s.io", resource: "leases", namespace: "kube-node-lease" };
    expect(ask({ ...lease, name: "n1", verb: "update" })).toEqual(allow);
    expect(ask({ ...lease, name: "", verb: "create" })).toEqual(allow);
    expect(ask({ ...lease, name: "n2", verb: "get" }).reason).toBe(
      "can only access node lease with the same name as the requesting node",
    );
    expect(ask({ ...lease, namespace: "default", name: "n1" }).reason).toBe(
      'can only access leases in the "kube-node-lease" system namespace',
    );
    expect(ask({ ...lease, name: "n1", verb: "list" }).reason).toBe(
      "can only get, create, update, patch, or delete a node lease",
    );
    const csinode = { apiGroup: "storage.k8s.io", resource: "csinodes", namespace: "" };
    expect(ask({ ...csinode, name: "n1", verb: "patch" })).toEqual(allow);
    expect(ask({ ...csinode, name: "n2" }).reason).toBe(
      "can only access CSINode with the same name as the requesting node",
    );
  });

  it("reads only its own Node object, writes nodes and their status", () => {
    expect(ask({ resource: "nodes", namespace: "", name: "n1" })).toEqual(allow);
    expect(ask({ resource: "nodes", namespace: "", name: "n1", verb: "watch" })).toEqual(allow);
    expect(ask({ resource: "nodes", namespace: "", name: "n2" }).reason).toBe(
      "node 'n1' cannot read 'n2', only its own Node object",
    );
    expect(ask({ resource: "nodes", namespace: "", name: "", verb: "list" }).reason).toBe(
      "node 'n1' cannot read all nodes, only its own Node object",
    );
    expect(ask({ resource: "nodes", namespace: "", name: "n2", verb: "patch" })).toEqual(allow);
    expect(ask({ resource: "nodes", namespace: "", subresource: "status", name: "n1", verb: "update" })).toEqual(allow);
    expect(ask({ resource: "nodes", namespace: "", name: "n1", verb: "delete" }).decision).toBe("noOpinion");
  });

  it("lists pods only by its node name, reads bound pods, and writes mirror pods and status", () => {
    expect(ask({ verb: "list", namespace: "", ...selector("spec.nodeName", "n1") })).toEqual(allow);
    expect(ask({ verb: "watch", namespace: "", ...selector("spec.nodeName", "n2") }).reason).toBe(
      "can only list/watch pods with spec.nodeName field selector",
    );
    expect(ask({ verb: "list", namespace: "", ...selector("spec.nodeName", "n1", "!=") }).decision).toBe("noOpinion");
    expect(ask({ verb: "get", namespace: "ns", name: "web" })).toEqual(allow);
    expect(ask({ verb: "get", namespace: "ns", name: "db" }).decision).toBe("noOpinion");
    expect(ask({ verb: "watch", namespace: "ns", name: "web" })).toEqual(allow);
    expect(ask({ verb: "create", namespace: "ns" })).toEqual(allow);
    expect(ask({ verb: "update", namespace: "ns", name: "web", subresource: "status" })).toEqual(allow);
    expect(ask({ verb: "create", namespace: "ns", name: "web", subresource: "eviction" })).toEqual(allow);
    expect(ask({ verb: "update", namespace: "ns", name: "web" }).decision).toBe("noOpinion");
  });

  it("limits ResourceSlices to its own", () => {
    const slices = { apiGroup: "resource.k8s.io", resource: "resourceslices", namespace: "" };
    expect(ask({ ...slices, verb: "create" })).toEqual(allow);
    expect(ask({ ...slices, verb: "update", name: "slice-n1" })).toEqual(allow);
    expect(ask({ ...slices, verb: "deletecollection", ...selector("spec.nodeName", "n1") })).toEqual(allow);
    expect(ask({ ...slices, verb: "list" }).reason).toBe(
      "can only list/watch/deletecollection resourceslices with nodeName field selector",
    );
  });

  it("decides other resources by the static node rules", () => {
    expect(ask({ resource: "services", verb: "list", namespace: "" })).toEqual(allow);
    expect(ask({ apiGroup: "authentication.k8s.io", resource: "tokenreviews", verb: "create", namespace: "" })).toEqual(
      allow,
    );
    expect(ask({ resource: "events", verb: "create" })).toEqual(allow);
    expect(ask({ resource: "events", verb: "delete" })).toEqual({ decision: "noOpinion", reason: "" });
    expect(ask({ apiGroup: "apps", resource: "deployments", verb: "get" }).decision).toBe("noOpinion");
  });

  it("cannot list a node's rules", () => {
    expect(auth.rulesFor(node1)).toMatchObject({ incomplete: true });
    expect(auth.rulesFor({ name: "jane", groups: [] })).toEqual({
      resourceRules: [],
      nonResourceRules: [],
      incomplete: false,
    });
  });
});
