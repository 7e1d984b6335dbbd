// Defaults and validation kube-apiserver applies to pods and every object embedding a pod template
// (Pod, PodTemplate, workloads, CronJob), found by walking to the pod spec wherever it sits rather than
// by kind. Also the rollout defaults of a RollingUpdate workload strategy, which depend on its type.
import type { FieldError } from "../errors/field-error.js";
import type { KubeObject } from "../object/kube-object.js";
import type { Strategy, WriteEnvironment } from "../registry/strategy.js";
import { asObject, type JsonObject, listItems } from "../validation/walk.js";
import { podCapabilities, validatePodTemplateSpec } from "./pod-spec-validation.js";

/** Keys leading from an object towards its pod spec: spec, template, jobTemplate. */
const towardsPodSpec = ["spec", "template", "jobTemplate"] as const;

/** The keys from the object down to its pod spec (`["spec", "template", "spec"]`). */
function podSpecKeys(obj: JsonObject): string[] | undefined {
  const walk = (node: JsonObject, keys: string[]): string[] | undefined => {
    if (Array.isArray(node.containers)) return keys;
    if (keys.length === 5) return undefined;
    for (const k of towardsPodSpec) {
      const next = asObject(node[k]);
      const found = next === undefined ? undefined : walk(next, [...keys, k]);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return walk(obj, []);
}

function at(obj: JsonObject, keys: readonly string[]): JsonObject | undefined {
  let node: JsonObject | undefined = obj;
  for (const k of keys) node = asObject(node?.[k]);
  return node;
}

/** The pod spec and whether it is the object's own `spec` (a Pod) rather than a template's. */
export function findPodSpec(obj: JsonObject): { spec: JsonObject; isPod: boolean } | undefined {
  const keys = podSpecKeys(obj);
  const spec = keys === undefined ? undefined : at(obj, keys);
  return keys === undefined || spec === undefined ? undefined : { spec, isPod: keys.join(".") === "spec" };
}

/** The pod template an object embeds and its field path (`spec.template`); none for a Pod. */
export function findPodTemplate(obj: JsonObject): { template: JsonObject; path: string } | undefined {
  const keys = podSpecKeys(obj)?.slice(0, -1);
  const template = keys === undefined || keys.length === 0 ? undefined : at(obj, keys);
  return keys === undefined || template === undefined ? undefined : { template, path: keys.join(".") };
}

/** `:latest` or no tag pulls always; a digest or any other tag pulls if not present. */
export function defaultPullPolicy(image: string): "Always" | "IfNotPresent" {
  if (image.includes("@")) return "IfNotPresent";
  const lastSegment = image.slice(image.lastIndexOf("/") + 1);
  const colon = lastSegment.lastIndexOf(":");
  if (colon === -1) return "Always";
  return lastSegment.slice(colon + 1) === "latest" ? "Always" : "IfNotPresent";
}

function defaultContainer(container: JsonObject, hostNetwork: boolean): void {
  if (container.imagePullPolicy === undefined && typeof container.image === "string") {
    container.imagePullPolicy = defaultPullPolicy(container.image);
  }
  // With the host's network a container port is a host port.
  if (hostNetwork) {
    for (const port of listItems(container.ports)) {
      const p = asObject(port);
      if (p !== undefined && p.hostPort === undefined) p.hostPort = p.containerPort;
    }
  }
}

/** Pods (not templates) request what they limit when requests are unset, resource by resource. */
function requestsFromLimits(container: JsonObject): void {
  const resources = asObject(container.resources);
  const limits = asObject(resources?.limits);
  if (resources === undefined || limits === undefined) return;
  const requests = asObject(resources.requests) ?? {};
  for (const [name, quantity] of Object.entries(limits)) if (requests[name] === undefined) requests[name] = quantity;
  if (Object.keys(requests).length > 0) resources.requests = requests;
}

/**
 * v1's deprecated `serviceAccount` is an alias kube's conversion keeps: read when `serviceAccountName` is
 * empty, and always written back as the name, so a client that sends only one of them keeps both.
 */
function aliasServiceAccount(spec: JsonObject): void {
  const name = spec.serviceAccountName || spec.serviceAccount;
  if (typeof name !== "string" || name === "") return;
  spec.serviceAccountName = name;
  spec.serviceAccount = name;
}

function defaultPodSpec(spec: JsonObject, isPod: boolean): void {
  aliasServiceAccount(spec);
  const hostNetwork = spec.hostNetwork === true;
  for (const list of ["initContainers", "containers", "ephemeralContainers"]) {
    for (const item of listItems(spec[list])) {
      const container = asObject(item);
      if (container === undefined) continue;
      defaultContainer(container, hostNetwork);
      if (isPod && list !== "ephemeralContainers") requestsFromLimits(container);
    }
  }
}

/** RollingUpdate (the default type) gets 25% surge and unavailability unless set; Recreate gets nothing. */
function defaultRollingUpdate(obj: JsonObject): void {
  const strategy = asObject(asObject(obj.spec)?.strategy);
  if (strategy === undefined) return;
  strategy.type ??= "RollingUpdate";
  if (strategy.type !== "RollingUpdate") return;
  const rollingUpdate = asObject(strategy.rollingUpdate) ?? {};
  rollingUpdate.maxUnavailable ??= "25%";
  rollingUpdate.maxSurge ??= "25%";
  strategy.rollingUpdate = rollingUpdate;
}

export const strategy: Strategy = {
  default(obj: KubeObject): void {
    const found = findPodSpec(obj);
    if (found !== undefined) defaultPodSpec(found.spec, found.isPod);
    defaultRollingUpdate(obj);
  },
  validate(obj: KubeObject, _old?: KubeObject, subresource?: string, env?: WriteEnvironment): FieldError[] {
    if (subresource === "status") return [];
    const found = findPodTemplate(obj);
    return found === undefined ? [] : validatePodTemplateSpec(found.template, found.path, podCapabilities(env));
  },
};
