// Services: defaults that depend on other fields (kube-apiserver's SetDefaults_Service and the service
// REST layer's IP family defaults), the allocated values an update keeps, kube's hand-written
// validation, and the deleted Service returned by a delete.
import type { FieldError } from "../errors/field-error.js";
import type { KubeObject } from "../object/kube-object.js";
import type { Strategy } from "../registry/strategy.js";
import { asObject, type JsonObject, listItems } from "../validation/walk.js";
import { carryOverAllocatedValues, normalizeClusterIPsOnCreate } from "./service-carry-over.js";
import { validateServiceSpec, validateServiceSpecUpdate } from "./service-validation.js";

/** The session stickiness window kube applies to ClientIP affinity: three hours. */
const clientIPTimeoutSeconds = 10800;

function defaultPorts(spec: JsonObject): void {
  for (const item of listItems(spec.ports)) {
    const port = asObject(item);
    if (port === undefined) continue;
    port.protocol ??= "TCP";
    // A target port of 0 or "" means unset, as in Go.
    if (port.targetPort === undefined || port.targetPort === null || port.targetPort === 0 || port.targetPort === "") {
      port.targetPort = port.port;
    }
  }
}

function defaultSpec(spec: JsonObject): void {
  spec.type ??= "ClusterIP";
  const type = spec.type;
  defaultPorts(spec);
  if (spec.sessionAffinity === "ClientIP") {
    const config = asObject(spec.sessionAffinityConfig) ?? {};
    const clientIP = asObject(config.clientIP) ?? {};
    clientIP.timeoutSeconds ??= clientIPTimeoutSeconds;
    config.clientIP = clientIP;
    spec.sessionAffinityConfig = config;
  }
  if (type === "NodePort" || type === "LoadBalancer") spec.externalTrafficPolicy ??= "Cluster";
  if (type === "LoadBalancer") spec.allocateLoadBalancerNodePorts ??= true;
  if (type !== "ExternalName") {
    spec.internalTrafficPolicy ??= "Cluster";
    // kapi serves a single-stack IPv4 cluster.
    spec.ipFamilyPolicy ??= "SingleStack";
    spec.ipFamilies ??= ["IPv4"];
  }
}

function specOf(obj: KubeObject): JsonObject {
  return asObject(obj.spec) ?? {};
}

export const strategy: Strategy = {
  tracksGeneration: false,
  default(obj: KubeObject): void {
    const spec = asObject(obj.spec);
    if (spec !== undefined) defaultSpec(spec);
  },
  prepareForCreate(obj: KubeObject): void {
    obj.status = { loadBalancer: {} };
    const spec = asObject(obj.spec);
    if (spec !== undefined) normalizeClusterIPsOnCreate(spec);
  },
  prepareForUpdate(obj: KubeObject, old: KubeObject, subresource?: string): void {
    const spec = asObject(obj.spec);
    if (subresource === undefined && spec !== undefined) carryOverAllocatedValues(spec, specOf(old));
  },
  validate(obj: KubeObject, old?: KubeObject, subresource?: string): FieldError[] {
    if (subresource === "status") return [];
    const spec = specOf(obj);
    const errs = old === undefined ? [] : validateServiceSpecUpdate(spec, specOf(old));
    errs.push(...validateServiceSpec(spec));
    return errs;
  },
  returnDeletedObject: true,
};
