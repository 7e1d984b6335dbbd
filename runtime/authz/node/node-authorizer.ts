// kube's Node authorizer (plugin/pkg/auth/authorizer/node) for kubelets, users `system:node:<name>` in
// group `system:nodes`, as v1.36 runs it with AuthorizeNodeWithSelectors: secrets, configmaps, PVCs, PVs,
// ResourceClaims, VolumeAttachments and service accounts only when the graph relates them to the node
// (through a pod bound to it); its own lease in kube-node-lease and its own CSINode; ResourceSlices of its
// own; Node objects its own by name (writes are left to admission, as in kube); pods listed or watched with
// `spec.nodeName=<node>` or read one by one when bound to it. Everything else is decided by the static
// node rules. Other users get no opinion.

import type { Attributes, Authorizer, Decision, SubjectRules } from "../../access/authorizer.js";
import { noOpinion } from "../../access/authorizer.js";
import type { UserInfo } from "../../access/user-info.js";
import { type PolicyRule, rulesAllow } from "../rbac/rule-matches.js";
import type { NodeGraph, VertexType } from "./node-graph.js";
import { nodeRules } from "./node-rules.js";

const nodeUserPrefix = "system:node:";
const nodesGroup = "system:nodes";
const nodeLeaseNamespace = "kube-node-lease";

const ownObjectVerbs = new Set(["get", "create", "update", "patch", "delete"]);

const allowed: Decision = { decision: "allow", reason: "" };

function deny(reason: string): Decision {
  return { decision: "noOpinion", reason };
}

/** nodeidentifier's default: the node's name, "" for a node user without one, undefined for others. */
export function nodeIdentity(user: UserInfo): string | undefined {
  if (!user.name.startsWith(nodeUserPrefix) || !user.groups.includes(nodesGroup)) return undefined;
  return user.name.slice(nodeUserPrefix.length);
}

function fieldSelectorNames(a: Attributes, field: string, value: string): boolean {
  return (a.fieldSelector?.requirements ?? []).some(
    (r) => r.field === field && r.operator === "=" && r.value === value,
  );
}

export class NodeAuthorizer implements Authorizer {
  constructor(
    private readonly graph: NodeGraph,
    private readonly rules: readonly PolicyRule[] = nodeRules,
  ) {}

  authorize(a: Attributes): Decision {
    const node = nodeIdentity(a.user);
    if (node === undefined) return noOpinion;
    if (node === "") return deny(`unknown node for user ${JSON.stringify(a.user.name)}`);
    if (a.resourceRequest) {
      const decided = this.subdivided(node, a);
      if (decided !== undefined) return decided;
    }
    return rulesAllow(a, this.rules) ? allowed : noOpinion;
  }

  /** Node users' rules depend on the graph and cannot be listed. */
  rulesFor(user: UserInfo): SubjectRules {
    return nodeIdentity(user) === undefined
      ? { resourceRules: [], nonResourceRules: [], incomplete: false }
      : {
          resourceRules: [],
          nonResourceRules: [],
          incomplete: true,
          evaluationError: "node authorizer does not support user rule resolution",
        };
  }

  /** The resources kube's node authorizer decides itself; undefined for the rest. */
  private subdivided(node: string, a: Attributes): Decision | undefined {
    switch (`${a.apiGroup}/${a.resource}`) {
      case "/secrets":
        return this.readNamespaced(node, "secret", a);
      case "/configmaps":
        return this.readNamespaced(node, "configmap", a);
      case "/persistentvolumeclaims":
        return a.subresource === "status" ? this.statusUpdate(node, a) : this.get(node, "pvc", a);
      case "/persistentvolumes":
        return this.get(node, "pv", a);
      case "resource.k8s.io/resourceclaims":
        return this.get(node, "resourceclaim", a);
      case "storage.k8s.io/volumeattachments":
        return this.get(node, "volumeattachment", a);
      case "/serviceaccounts":
        return this.serviceAccount(node, a);
      case "coordination.k8s.io/leases":
        return this.lease(node, a);
      case "storage.k8s.io/csinodes":
        return this.csiNode(node, a);
      case "resource.k8s.io/resourceslices":
        return this.resourceSlice(node, a);
      case "/nodes":
        return this.nodeObject(node, a);
      case "/pods":
        return this.pod(node, a);
      default:
        return undefined;
    }
  }

  private related(node: string, type: VertexType, a: Attributes): Decision {
    if (a.name === "") return deny("No Object name found");
    return this.graph.hasPathFrom(node, type, a.namespace, a.name)
      ? allowed
      : deny(`no relationship found between node '${node}' and this object`);
  }

  private statusUpdate(node: string, a: Attributes): Decision {
    if (a.verb !== "update" && a.verb !== "patch") return deny("can only get/update/patch this type");
    return this.related(node, "pvc", a);
  }

  private get(node: string, type: VertexType, a: Attributes): Decision {
    if (a.verb !== "get") return deny("can only get individual resources of this type");
    if (a.subresource !== "") return deny("cannot get subresource");
    return this.related(node, type, a);
  }

  private readNamespaced(node: string, type: VertexType, a: Attributes): Decision {
    if (a.verb !== "get" && a.verb !== "list" && a.verb !== "watch") {
      return deny("can only read resources of this type");
    }
    if (a.subresource !== "") return deny("cannot read subresource");
    if (a.namespace === "") return deny("can only read namespaced object of this type");
    return this.related(node, type, a);
  }

  /** Reading a service account the node's pods run as (for credential providers), or a token for it. */
  private serviceAccount(node: string, a: Attributes): Decision {
    if (a.verb === "get" && a.subresource === "") return this.readNamespaced(node, "serviceaccount", a);
    if (a.verb !== "create" || a.name === "") {
      return deny("can only create tokens for individual service accounts");
    }
    if (a.subresource !== "token") return deny("can only create token subresource of serviceaccount");
    return this.related(node, "serviceaccount", a);
  }

  /** Only the node's own lease in kube-node-lease (the name of a new one is checked by admission). */
  private lease(node: string, a: Attributes): Decision {
    if (!ownObjectVerbs.has(a.verb)) return deny("can only get, create, update, patch, or delete a node lease");
    if (a.namespace !== nodeLeaseNamespace) {
      return deny(`can only access leases in the ${JSON.stringify(nodeLeaseNamespace)} system namespace`);
    }
    if (a.verb !== "create" && a.name !== node) {
      return deny("can only access node lease with the same name as the requesting node");
    }
    return allowed;
  }

  /** Only the node's own CSINode (the name of a new one is checked by admission). */
  private csiNode(node: string, a: Attributes): Decision {
    if (!ownObjectVerbs.has(a.verb)) return deny("can only get, create, update, patch, or delete a CSINode");
    if (a.subresource !== "") return deny("cannot authorize CSINode subresources");
    if (a.verb !== "create" && a.name !== node) {
      return deny("can only access CSINode with the same name as the requesting node");
    }
    return allowed;
  }

  private resourceSlice(node: string, a: Attributes): Decision {
    if (a.subresource !== "") return deny("cannot authorize ResourceSlice subresources");
    switch (a.verb) {
      case "create":
        return allowed;
      case "get":
      case "update":
      case "patch":
      case "delete":
        return this.related(node, "resourceslice", a);
      case "watch":
      case "list":
      case "deletecollection":
        return fieldSelectorNames(a, "spec.nodeName", node)
          ? allowed
          : deny("can only list/watch/deletecollection resourceslices with nodeName field selector");
      default:
        return deny(
          "only the following verbs are allowed for a ResourceSlice: get, watch, list, create, update, patch, delete, deletecollection",
        );
    }
  }

  private nodeObject(node: string, a: Attributes): Decision {
    if (a.subresource === "") {
      if (a.verb === "create" || a.verb === "update" || a.verb === "patch") return allowed;
      if (a.verb === "get" || a.verb === "list" || a.verb === "watch") {
        if (a.name === node) return allowed;
        return a.name === ""
          ? deny(`node '${node}' cannot read all nodes, only its own Node object`)
          : deny(`node '${node}' cannot read '${a.name}', only its own Node object`);
      }
    } else if (a.subresource === "status" && (a.verb === "update" || a.verb === "patch")) {
      return allowed;
    }
    return noOpinion;
  }

  private pod(node: string, a: Attributes): Decision {
    switch (a.subresource) {
      case "":
        if (a.verb === "get") return this.get(node, "pod", a);
        if (a.verb === "list" || a.verb === "watch") {
          if (fieldSelectorNames(a, "spec.nodeName", node)) return allowed;
          if (a.name !== "") return this.related(node, "pod", a);
          return deny("can only list/watch pods with spec.nodeName field selector");
        }
        // Mirror pods; admission limits them to the node's own.
        if (a.verb === "create" || a.verb === "delete") return allowed;
        break;
      case "status":
        if (a.verb === "update" || a.verb === "patch") return allowed;
        break;
      case "eviction":
        if (a.verb === "create") return allowed;
        break;
    }
    return noOpinion;
  }
}
