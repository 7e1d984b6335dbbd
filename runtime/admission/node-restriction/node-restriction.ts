// kube's NodeRestriction admission (plugin/pkg/admission/noderestriction), off by default: what a kubelet,
// user `system:node:<name>` in group `system:nodes`, may write beyond what the Node authorizer lets it reach.
// Mirror pods of its own only (bound to it, owned by its Node, referring to no API object), status of its
// own pods, evictions and deletes of its own pods; its own Node without taints, owner references, config
// source or labels outside the kubelet's set; PVC status conditions and capacity; tokens bound to its pods;
// its own lease, CSINode, ResourceSlices and node CSRs. Runs in the mutating phase, as kube's Admit.
// kube's v1.36 feature gates as default: DynamicResourceAllocation, RecoverVolumeExpansionFailure and
// ServiceAccountNodeAudienceRestriction on; PodCertificateRequest and
// AllowInsecureKubeletCertificateSigningRequests off.

import { isDeepStrictEqual } from "node:util";
import type { Authorizer } from "../../access/authorizer.js";
import { nodeIdentity } from "../../authz/node/node-authorizer.js";
import { StatusError } from "../../errors/status-error.js";
import type { KubeObject } from "../../object/kube-object.js";
import { builtinKind } from "../../registry/kinds.js";
import type { ResourceApi } from "../../resources/resource-api.js";
import { CertificateRequestError, requestOf } from "../../strategies/certificate-signing-request-parse.js";
import { asObject, type JsonObject, listItems } from "../../validation/walk.js";
import type { AdmissionAttributes, AdmissionPlugin } from "../admission.js";
import { admissionForbidden } from "../admission-forbidden.js";
import { forbiddenLabels, modifiedLabels } from "./node-labels.js";
import { podApiReference, UnknownVolumeError } from "./pod-api-references.js";
import { TokenAudienceCheck } from "./token-audience.js";

const pods = builtinKind("", "v1", "pods");
const nodes = builtinKind("", "v1", "nodes");

const mirrorPodAnnotation = "kubernetes.io/config.mirror";
const nodeLeaseNamespace = "kube-node-lease";
const nodeSigners = new Set(["kubernetes.io/kubelet-serving", "kubernetes.io/kube-apiserver-client-kubelet"]);

type Json = JsonObject;

function meta(obj: KubeObject | undefined): Json {
  return asObject(obj?.metadata) ?? {};
}

function spec(obj: KubeObject | undefined): Json {
  return asObject(obj?.spec) ?? {};
}

function status(obj: KubeObject | undefined): Json {
  return asObject(obj?.status) ?? {};
}

function labelsOf(obj: KubeObject | undefined): Record<string, string> {
  return (asObject(meta(obj).labels) ?? {}) as Record<string, string>;
}

/** apiequality.Semantic.DeepEqual as it reads JSON: an absent, null, empty list or empty map field is one value. */
function semanticEqual(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(normalized(a), normalized(b));
}

function normalized(value: unknown): unknown {
  if (Array.isArray(value)) return value.length === 0 ? undefined : value.map(normalized);
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value)
      .map(([k, v]) => [k, normalized(v)] as const)
      .filter(([, v]) => v !== undefined);
    return entries.length === 0 ? undefined : Object.fromEntries(entries);
  }
  return value ?? undefined;
}

function str(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** A read through the cache (kube reads its informers' listers); NotFound propagates as it is. */
async function cached(api: ResourceApi, target: Parameters<ResourceApi["get"]>[0]): Promise<KubeObject> {
  return (await api.get(target, { resourceVersion: "0" })).object;
}

function isNotFound(error: unknown): boolean {
  return error instanceof StatusError && error.status.code === 404;
}

export function nodeRestriction(api: ResourceApi, authorizer: () => Authorizer): AdmissionPlugin {
  const audiences = new TokenAudienceCheck(api, authorizer);

  /** A lister's read: NotFound as it is, any other failure forbidden. */
  async function lookup(a: AdmissionAttributes, target: Parameters<ResourceApi["get"]>[0]): Promise<KubeObject> {
    try {
      return await cached(api, target);
    } catch (error) {
      if (isNotFound(error)) throw error;
      throw admissionForbidden(a, (error as Error).message);
    }
  }

  async function admitPodCreate(node: string, a: AdmissionAttributes): Promise<void> {
    const pod = a.object as KubeObject;
    const annotations = asObject(meta(pod).annotations) ?? {};
    if (!(mirrorPodAnnotation in annotations)) {
      throw admissionForbidden(
        a,
        `pod does not have "${mirrorPodAnnotation}" annotation, node "${node}" can only create mirror pods`,
      );
    }
    if (str(spec(pod).nodeName) !== node) {
      throw admissionForbidden(a, `node "${node}" can only create pods with spec.nodeName set to itself`);
    }
    const owners = listItems(meta(pod).ownerReferences).map((o) => asObject(o) ?? {});
    if (owners.length > 1) {
      throw admissionForbidden(a, `node "${node}" can only create pods with a single owner reference set to itself`);
    }
    const owner = owners[0];
    if (owner === undefined || owner.apiVersion !== "v1" || owner.kind !== "Node" || owner.name !== node) {
      throw admissionForbidden(a, `node "${node}" can only create pods with an owner reference set to itself`);
    }
    if (owner.controller !== true) {
      throw admissionForbidden(
        a,
        `node "${node}" can only create pods with a controller owner reference set to itself`,
      );
    }
    if (owner.blockOwnerDeletion === true) {
      throw admissionForbidden(a, `node "${node}" must not set blockOwnerDeletion on an owner reference`);
    }
    let nodeObject: KubeObject;
    try {
      nodeObject = await cached(api, { kind: nodes, name: node });
    } catch (error) {
      if (isNotFound(error)) throw error;
      throw admissionForbidden(a, `error looking up node ${node} to verify uid: ${(error as Error).message}`);
    }
    const uid = str(meta(nodeObject).uid);
    if (str(owner.uid) !== uid) {
      throw admissionForbidden(a, `node ${node} UID mismatch: expected ${str(owner.uid)} got ${uid}`);
    }
    let reference: string | undefined;
    try {
      reference = podApiReference(pod);
    } catch (error) {
      if (!(error instanceof UnknownVolumeError)) throw error;
      throw admissionForbidden(a, `error checking mirror pod for API references: ${error.message}`);
    }
    if (reference !== undefined) {
      throw admissionForbidden(a, `node "${node}" can not create pods that reference ${reference}`);
    }
  }

  async function admitPod(node: string, a: AdmissionAttributes): Promise<void> {
    if (a.operation === "CREATE") return admitPodCreate(node, a);
    if (a.operation === "DELETE") {
      // The stored pod the delete removes, as kube reads it from its informer.
      if (str(spec(a.oldObject).nodeName) !== node) {
        throw admissionForbidden(a, `node "${node}" can only delete pods with spec.nodeName set to itself`);
      }
      return;
    }
    throw admissionForbidden(
      a,
      `unexpected operation "${a.operation}", node "${node}" can only create and delete mirror pods`,
    );
  }

  function claimStatusesEqual(a: unknown, b: unknown): boolean {
    const left = listItems(a).map((s) => asObject(s) ?? {});
    const right = listItems(b).map((s) => asObject(s) ?? {});
    return (
      left.length === right.length &&
      left.every(
        (s, i) => s.name === right[i]?.name && (s.resourceClaimName ?? null) === (right[i]?.resourceClaimName ?? null),
      )
    );
  }

  function extendedClaimStatusEqual(a: unknown, b: unknown): boolean {
    const left = asObject(a);
    const right = asObject(b);
    if (left === undefined || right === undefined) return left === right;
    return (
      left.resourceClaimName === right.resourceClaimName && semanticEqual(left.requestMappings, right.requestMappings)
    );
  }

  function admitPodStatus(node: string, a: AdmissionAttributes): void {
    if (a.operation !== "UPDATE") throw admissionForbidden(a, `unexpected operation "${a.operation}"`);
    if (str(spec(a.oldObject).nodeName) !== node) {
      throw admissionForbidden(
        a,
        `node "${node}" can only update pod status for pods with spec.nodeName set to itself`,
      );
    }
    if (!isDeepStrictEqual(labelsOf(a.oldObject), labelsOf(a.object))) {
      throw admissionForbidden(a, `node "${node}" cannot update labels through pod status`);
    }
    const before = status(a.oldObject);
    const after = status(a.object);
    if (!claimStatusesEqual(before.resourceClaimStatuses, after.resourceClaimStatuses)) {
      throw admissionForbidden(a, `node "${node}" cannot update resource claim statues`);
    }
    if (!extendedClaimStatusEqual(before.extendedResourceClaimStatus, after.extendedResourceClaimStatus)) {
      throw admissionForbidden(a, `node "${node}" cannot update extended resource claim status`);
    }
  }

  async function admitPodEviction(node: string, a: AdmissionAttributes): Promise<void> {
    if (a.operation !== "CREATE") throw admissionForbidden(a, `unexpected operation ${a.operation}`);
    let podName = a.name;
    if (podName === "") {
      podName = str(meta(a.object).name);
      if (podName === "") throw admissionForbidden(a, "could not determine pod from request data");
    }
    const pod = await lookup(a, { kind: pods, namespace: a.namespace as string, name: podName });
    if (str(spec(pod).nodeName) !== node) {
      throw admissionForbidden(a, `node ${node} can only evict pods with spec.nodeName set to itself`);
    }
  }

  /** The claim without what a node may change: resourceVersion, managed fields and the status it reports. */
  function pvcWithoutNodeFields(pvc: KubeObject | undefined): Json {
    const copy = structuredClone(pvc ?? {}) as Json;
    const m = asObject(copy.metadata);
    if (m !== undefined) {
      delete m.resourceVersion;
      delete m.managedFields;
    }
    const s = asObject(copy.status);
    if (s !== undefined) {
      for (const field of ["capacity", "conditions", "allocatedResourceStatuses", "allocatedResources"])
        delete s[field];
    }
    return copy;
  }

  /** The top-level paths whose values differ, as a short account of the change (kube prints a Go diff). */
  function differences(before: Json, after: Json, path = ""): string[] {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    return keys.flatMap((key) => {
      const here = path === "" ? key : `${path}.${key}`;
      const left = asObject(before[key]);
      const right = asObject(after[key]);
      if (left !== undefined && right !== undefined) return differences(left, right, here);
      return semanticEqual(before[key], after[key]) ? [] : [here];
    });
  }

  function admitPvcStatus(node: string, a: AdmissionAttributes): void {
    if (a.operation !== "UPDATE") throw admissionForbidden(a, `unexpected operation "${a.operation}"`);
    const before = pvcWithoutNodeFields(a.oldObject);
    const after = pvcWithoutNodeFields(a.object);
    if (!semanticEqual(before, after)) {
      throw admissionForbidden(
        a,
        `node "${node}" is not allowed to update fields other than status.quantity and status.conditions: ${differences(before, after).join(", ")}`,
      );
    }
  }

  function admitNode(node: string, a: AdmissionAttributes): void {
    if (a.name !== node) throw admissionForbidden(a, `node "${node}" is not allowed to modify node "${a.name}"`);
    if (a.operation === "CREATE") {
      if (asObject(spec(a.object).configSource) !== undefined) {
        throw admissionForbidden(a, `node "${node}" is not allowed to create pods with a non-nil configSource`);
      }
      const forbidden = forbiddenLabels(modifiedLabels(labelsOf(a.object), {}));
      if (forbidden.length > 0) {
        throw admissionForbidden(
          a,
          `node "${node}" is not allowed to set the following labels: ${forbidden.join(", ")}`,
        );
      }
    }
    if (a.operation === "UPDATE") {
      const configSource = spec(a.object).configSource;
      if (asObject(configSource) !== undefined && !semanticEqual(configSource, spec(a.oldObject).configSource)) {
        throw admissionForbidden(
          a,
          `node "${node}" is not allowed to update configSource to a new non-nil configSource`,
        );
      }
      if (!semanticEqual(spec(a.object).taints, spec(a.oldObject).taints)) {
        throw admissionForbidden(a, `node "${node}" is not allowed to modify taints`);
      }
      if (!semanticEqual(meta(a.object).ownerReferences, meta(a.oldObject).ownerReferences)) {
        throw admissionForbidden(a, `node "${node}" is not allowed to modify ownerReferences`);
      }
      const forbidden = forbiddenLabels(modifiedLabels(labelsOf(a.object), labelsOf(a.oldObject)));
      if (forbidden.length > 0) throw admissionForbidden(a, `is not allowed to modify labels: ${forbidden.join(", ")}`);
    }
  }

  async function admitServiceAccount(node: string, a: AdmissionAttributes): Promise<void> {
    if (a.operation !== "CREATE" || a.subresource !== "token") return;
    const tokenRequest = a.object as KubeObject;
    const ref = asObject(spec(tokenRequest).boundObjectRef);
    if (ref === undefined || ref.apiVersion !== "v1" || ref.kind !== "Pod" || str(ref.name) === "") {
      throw admissionForbidden(a, "node requested token not bound to a pod");
    }
    if (str(ref.uid) === "") throw admissionForbidden(a, "node requested token with a pod binding without a uid");
    const namespace = a.namespace as string;
    const pod = await lookup(a, { kind: pods, namespace, name: str(ref.name) });
    if (str(ref.uid) !== str(meta(pod).uid)) {
      throw admissionForbidden(
        a,
        `the UID in the bound object reference (${str(ref.uid)}) does not match the UID in record. The object might have been deleted and then recreated`,
      );
    }
    if (str(spec(pod).nodeName) !== node) {
      throw admissionForbidden(a, "node requested token bound to a pod scheduled on a different node");
    }
    const user = a.request?.user;
    if (user === undefined) return;
    const refusal = await audiences.refusal(user, tokenRequest, pod, namespace, a.name);
    if (refusal !== undefined) throw admissionForbidden(a, refusal);
  }

  function admitLease(node: string, a: AdmissionAttributes): void {
    if (a.namespace !== nodeLeaseNamespace) {
      throw admissionForbidden(a, `can only access leases in the "${nodeLeaseNamespace}" system namespace`);
    }
    const name = a.operation === "CREATE" ? str(meta(a.object).name) : a.name;
    if (name !== node)
      throw admissionForbidden(a, "can only access node lease with the same name as the requesting node");
  }

  function admitCsiNode(node: string, a: AdmissionAttributes): void {
    const name = a.operation === "CREATE" ? str(meta(a.object).name) : a.name;
    if (name !== node) throw admissionForbidden(a, "can only access CSINode with the same name as the requesting node");
  }

  function admitResourceSlice(node: string, a: AdmissionAttributes): void {
    if (a.operation === "CREATE" && spec(a.object).nodeName !== node) {
      throw admissionForbidden(a, "can only create ResourceSlice with the same NodeName as the requesting node");
    }
    if (a.operation === "DELETE" && spec(a.oldObject).nodeName !== node) {
      throw admissionForbidden(a, "can only delete ResourceSlice with the same NodeName as the requesting node");
    }
  }

  function admitCsr(node: string, a: AdmissionAttributes): void {
    if (a.operation !== "CREATE") return;
    const csrSpec = spec(a.object);
    if (!nodeSigners.has(str(csrSpec.signerName))) return;
    let commonName: string;
    try {
      commonName = requestOf(csrSpec).commonName;
    } catch (error) {
      if (!(error instanceof CertificateRequestError)) throw error;
      throw admissionForbidden(a, `unable to parse csr: ${error.message}`);
    }
    if (commonName !== `system:node:${node}`) {
      throw admissionForbidden(a, `can only create a node CSR with CN=system:node:${node}`);
    }
  }

  async function admit(node: string, a: AdmissionAttributes): Promise<void> {
    const { group } = a.kind;
    const resource = a.kind.resource.plural;
    switch (`${group}/${resource}`) {
      case "/pods":
        if (a.subresource === undefined || a.subresource === "") return admitPod(node, a);
        if (a.subresource === "status") return admitPodStatus(node, a);
        if (a.subresource === "eviction") return admitPodEviction(node, a);
        throw admissionForbidden(
          a,
          `unexpected pod subresource "${a.subresource}", only 'status' and 'eviction' are allowed`,
        );
      case "/nodes":
        return admitNode(node, a);
      case "/persistentvolumeclaims":
        if (a.subresource === "status") return admitPvcStatus(node, a);
        throw admissionForbidden(a, "may only update PVC status");
      case "/serviceaccounts":
        return admitServiceAccount(node, a);
      case "certificates.k8s.io/podcertificaterequests":
        throw admissionForbidden(a, "PodCertificateRequest feature gate is disabled");
      case "coordination.k8s.io/leases":
        return admitLease(node, a);
      case "storage.k8s.io/csinodes":
        return admitCsiNode(node, a);
      case "resource.k8s.io/resourceslices":
        return admitResourceSlice(node, a);
      case "certificates.k8s.io/certificatesigningrequests":
        return admitCsr(node, a);
      default:
        return;
    }
  }

  return {
    name: "NodeRestriction",
    async mutate(a) {
      if (a.operation === "CONNECT") return;
      const user = a.request?.user;
      if (user === undefined) return;
      const node = nodeIdentity(user);
      if (node === undefined) return;
      if (node === "") throw admissionForbidden(a, `could not determine node from user "${user.name}"`);
      await admit(node, a);
    },
  };
}
