// Services: defaults that depend on other fields (kube-apiserver's SetDefaults_Service), the allocated
// values an update keeps, kube's hand-written validation, the deleted Service returned by a delete, and
// the claims of the service REST layer (IP family fields, cluster IPs, node ports), which the server's
// service network makes (runtime/service-network/); a ResourceApi without one claims nothing.
import type { FieldError } from "../errors/field-error.js";
import type { KubeObject } from "../object/kube-object.js";
import type { Strategy, WriteClaims, WriteEnvironment } from "../registry/strategy.js";
import { serviceNetworkKey } from "../service-network/service-network.js";
import { asObject, type JsonObject, listItems } from "../validation/walk.js";
import type { RequestHooks } from "./hook-request.js";
import { carryOverAllocatedValues, normalizeClusterIPsOnCreate } from "./service-carry-over.js";
import { serviceProxy } from "./service-proxy.js";
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
  }
}

/**
 * kube drops internalTrafficPolicy from ExternalName Services on every read (defaultOnReadInternalTrafficPolicy);
 * kapi drops it on write, which reads the same.
 */
function dropExternalNameTrafficPolicy(spec: JsonObject): void {
  if (spec.type === "ExternalName") delete spec.internalTrafficPolicy;
}

function specOf(obj: KubeObject): JsonObject {
  return asObject(obj.spec) ?? {};
}

export const strategy: Strategy & RequestHooks = {
  connectHooks: { proxy: serviceProxy },
  tracksGeneration: false,
  default(obj: KubeObject): void {
    const spec = asObject(obj.spec);
    if (spec !== undefined) defaultSpec(spec);
  },
  prepareForCreate(obj: KubeObject): void {
    obj.status = { loadBalancer: {} };
    const spec = asObject(obj.spec);
    if (spec === undefined) return;
    normalizeClusterIPsOnCreate(spec);
    dropExternalNameTrafficPolicy(spec);
  },
  prepareForUpdate(obj: KubeObject, old: KubeObject, subresource?: string): void {
    const spec = asObject(obj.spec);
    if (subresource !== undefined || spec === undefined) return;
    carryOverAllocatedValues(spec, specOf(old));
    dropExternalNameTrafficPolicy(spec);
  },
  async claim(obj: KubeObject, old: KubeObject | undefined, env: WriteEnvironment): Promise<WriteClaims | undefined> {
    const allocation = env.local(serviceNetworkKey)?.allocation;
    if (allocation === undefined) return undefined;
    return old === undefined ? allocation.claimCreate(obj, env.dryRun) : allocation.claimUpdate(obj, old, env.dryRun);
  },
  async release(obj: KubeObject, env: WriteEnvironment): Promise<void> {
    await env.local(serviceNetworkKey)?.release(obj);
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
