// How a Service update treats the values the server allocated (cluster IPs, node ports, the health
// check port): a client that leaves them out keeps them (kube's patchAllocatedValues), clusterIP and
// clusterIPs stay in step (NormalizeClusterIPs), and a change of type drops the fields the new type does
// not use when the client did not touch them (dropTypeDependentFields).
import { semanticEqual } from "../validation/field-rules.js";
import { asObject, type JsonObject, listItems } from "../validation/walk.js";

function strings(value: unknown): string[] {
  return listItems(value).filter((v): v is string => typeof v === "string");
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function ports(spec: JsonObject): JsonObject[] {
  return listItems(spec.ports)
    .map((p) => asObject(p))
    .filter((p): p is JsonObject => p !== undefined);
}

function nodePortOf(port: JsonObject): number {
  return typeof port.nodePort === "number" ? port.nodePort : 0;
}

function nodePorts(spec: JsonObject): Set<number> {
  return new Set(
    ports(spec)
      .map(nodePortOf)
      .filter((p) => p !== 0),
  );
}

function needsClusterIP(spec: JsonObject): boolean {
  return spec.type !== "ExternalName";
}

function needsNodePorts(spec: JsonObject): boolean {
  return spec.type === "NodePort" || (spec.type === "LoadBalancer" && spec.allocateLoadBalancerNodePorts !== false);
}

function needsHealthCheckPort(spec: JsonObject): boolean {
  return spec.type === "LoadBalancer" && spec.externalTrafficPolicy === "Local";
}

function externallyAccessible(spec: JsonObject): boolean {
  return (
    spec.type === "LoadBalancer" ||
    spec.type === "NodePort" ||
    (spec.type === "ClusterIP" && strings(spec.externalIPs).length > 0)
  );
}

/** On create a client that names only clusterIP gets the same address in clusterIPs. */
export function normalizeClusterIPsOnCreate(spec: JsonObject): void {
  if (text(spec.clusterIP) !== "" && strings(spec.clusterIPs).length === 0) spec.clusterIPs = [spec.clusterIP];
}

function patchAllocatedValues(spec: JsonObject, old: JsonObject): void {
  if (needsClusterIP(old) && needsClusterIP(spec)) {
    if (text(spec.clusterIP) === "" && old.clusterIP !== undefined) spec.clusterIP = old.clusterIP;
    if (strings(spec.clusterIPs).length === 0 && strings(old.clusterIPs).length > 0)
      spec.clusterIPs = [...strings(old.clusterIPs)];
  }
  if (needsNodePorts(old) && needsNodePorts(spec)) {
    const kept = nodePorts(spec);
    const used = new Set([...nodePorts(old)].filter((p) => kept.has(p)));
    const byName = new Map(ports(old).map((p) => [text(p.name), nodePortOf(p)]));
    for (const port of ports(spec)) {
      const previous = byName.get(text(port.name)) ?? 0;
      if (nodePortOf(port) === 0 && previous !== 0 && !used.has(previous)) port.nodePort = previous;
    }
  }
  if (needsHealthCheckPort(old) && needsHealthCheckPort(spec) && !spec.healthCheckNodePort && old.healthCheckNodePort) {
    spec.healthCheckNodePort = old.healthCheckNodePort;
  }
}

function normalizeClusterIPsOnUpdate(spec: JsonObject, old: JsonObject): void {
  const clusterIP = text(spec.clusterIP);
  const oldClusterIP = text(old.clusterIP);
  const oldIPs = strings(old.clusterIPs);
  // An old client that knows only clusterIP left clusterIPs out.
  if (oldIPs.length > 0 && strings(spec.clusterIPs).length === 0 && clusterIP === oldClusterIP)
    spec.clusterIPs = [...oldIPs];
  if (clusterIP === oldClusterIP) return;
  const ips = strings(spec.clusterIPs);
  if (oldClusterIP !== "" && clusterIP === "" && ips.length > 0 && ips[0] === oldIPs[0]) delete spec.clusterIPs;
  if (clusterIP === "") return;
  if (ips.length === 0) spec.clusterIPs = [clusterIP];
  else if (semanticEqual(ips, oldIPs)) spec.clusterIPs = [clusterIP, ...ips.slice(1)];
}

function dropTypeDependentFields(spec: JsonObject, old: JsonObject): void {
  if (needsClusterIP(old) && !needsClusterIP(spec)) {
    if (text(spec.clusterIP) === text(old.clusterIP) && semanticEqual(spec.clusterIPs, old.clusterIPs)) {
      delete spec.clusterIP;
      delete spec.clusterIPs;
    }
    if (semanticEqual(spec.ipFamilies, old.ipFamilies)) delete spec.ipFamilies;
    if (semanticEqual(spec.ipFamilyPolicy, old.ipFamilyPolicy)) delete spec.ipFamilyPolicy;
  }
  const oldNodePorts = nodePorts(old);
  const noNewNodePorts = [...nodePorts(spec)].every((p) => oldNodePorts.has(p));
  if (needsNodePorts(old) && !needsNodePorts(spec) && noNewNodePorts)
    for (const port of ports(spec)) delete port.nodePort;
  if (
    needsHealthCheckPort(old) &&
    !needsHealthCheckPort(spec) &&
    spec.healthCheckNodePort === old.healthCheckNodePort
  ) {
    delete spec.healthCheckNodePort;
  }
  if (old.type === "LoadBalancer" && spec.type !== "LoadBalancer") {
    const allocate = spec.allocateLoadBalancerNodePorts;
    if (typeof allocate === "boolean" && allocate === old.allocateLoadBalancerNodePorts) {
      delete spec.allocateLoadBalancerNodePorts;
    }
    if (semanticEqual(spec.loadBalancerClass, old.loadBalancerClass)) delete spec.loadBalancerClass;
  }
  if (
    externallyAccessible(old) &&
    !externallyAccessible(spec) &&
    spec.externalTrafficPolicy === old.externalTrafficPolicy
  ) {
    delete spec.externalTrafficPolicy;
  }
}

/** Everything an update of the Service itself (not its status) carries over from the stored object. */
export function carryOverAllocatedValues(spec: JsonObject, old: JsonObject): void {
  patchAllocatedValues(spec, old);
  normalizeClusterIPsOnUpdate(spec, old);
  dropTypeDependentFields(spec, old);
}
