// What a Service write claims before it is stored, as kube-apiserver's service REST does
// (pkg/registry/core/service/storage/alloc.go): the IP family fields defaulted for this cluster's ranges,
// cluster IPs (given ones checked, missing ones picked), node ports and the health check node port. An
// update claims what the new spec adds and frees, on commit, what it drops; a delete frees everything.
import type { FieldError } from "../errors/field-error.js";
import { invalid as invalidField } from "../errors/field-error.js";
import { internal, invalid } from "../errors/status-error.js";
import type { KubeObject } from "../object/kube-object.js";
import { validateClusterIPs } from "../strategies/service-validation.js";
import { asObject, type JsonObject, listItems } from "../validation/walk.js";
import { type IPAllocator, ipRangeFullMessage, type ServiceRef } from "./ip-allocator.js";
import { familyOf, type IPFamily } from "./ip-range.js";
import type { NodePortAllocator } from "./node-port-allocator.js";
import { NodePortOperation } from "./node-port-operation.js";

const serviceKind = { group: "", name: "Service" };

/** What a write claimed: commit once stored, revert when the write fails. */
export interface ServiceClaims {
  commit(): Promise<void>;
  revert(): Promise<void>;
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function strings(value: unknown): string[] {
  return listItems(value).filter((v): v is string => typeof v === "string");
}

function portsOf(spec: JsonObject): JsonObject[] {
  return listItems(spec.ports)
    .map((p) => asObject(p))
    .filter((p): p is JsonObject => p !== undefined);
}

function nodePortOf(port: JsonObject): number {
  return typeof port.nodePort === "number" ? port.nodePort : 0;
}

function nodePortsOf(spec: JsonObject): number[] {
  return portsOf(spec)
    .map(nodePortOf)
    .filter((p) => p !== 0);
}

function headless(spec: JsonObject): boolean {
  return strings(spec.clusterIPs)[0] === "None";
}

function hasNodePorts(spec: JsonObject): boolean {
  return spec.type === "NodePort" || spec.type === "LoadBalancer";
}

function shouldAllocateNodePorts(spec: JsonObject): boolean {
  return spec.type === "NodePort" || (spec.type === "LoadBalancer" && spec.allocateLoadBalancerNodePorts !== false);
}

/** kube's NeedsHealthCheck. */
function needsHealthCheck(spec: JsonObject): boolean {
  return spec.type === "LoadBalancer" && spec.externalTrafficPolicy === "Local";
}

function hasSelector(spec: JsonObject): boolean {
  return Object.keys(asObject(spec.selector) ?? {}).length > 0;
}

function sameList(a: unknown, b: unknown): boolean {
  const x = strings(a);
  const y = strings(b);
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

function otherFamily(family: string): IPFamily {
  return family === "IPv4" ? "IPv6" : "IPv4";
}

function specOf(obj: KubeObject): JsonObject {
  let spec = asObject(obj.spec);
  if (spec === undefined) {
    spec = {};
    obj.spec = spec;
  }
  return spec;
}

function nameOf(obj: KubeObject): ServiceRef {
  const meta = asObject(obj.metadata) ?? {};
  return { namespace: text(meta.namespace), name: text(meta.name) };
}

/** Claims and frees of one Service write, undone in reverse on failure. */
class ServiceWrite implements ServiceClaims {
  readonly allocatedIPs: string[] = [];
  readonly releasedIPs: string[] = [];
  readonly ports: NodePortOperation;

  constructor(
    readonly ips: IPAllocator,
    nodePorts: NodePortAllocator,
    readonly dryRun: boolean,
  ) {
    this.ports = new NodePortOperation(nodePorts, dryRun);
  }

  async commit(): Promise<void> {
    if (this.dryRun) return;
    for (const ip of this.releasedIPs) await this.ips.release(ip);
    await this.ports.commit();
  }

  async revert(): Promise<void> {
    if (this.dryRun) return;
    for (const ip of this.allocatedIPs.splice(0)) await this.ips.release(ip);
    await this.ports.revert();
  }
}

export class ServiceAllocation {
  constructor(
    private readonly ips: IPAllocator,
    private readonly nodePorts: NodePortAllocator,
  ) {}

  async claimCreate(obj: KubeObject, dryRun: boolean): Promise<ServiceClaims> {
    const spec = specOf(obj);
    const ref = nameOf(obj);
    const write = new ServiceWrite(this.ips, this.nodePorts, dryRun);
    try {
      this.#normalizeClusterIPs(spec);
      this.#initIPFamilyFields(spec, undefined, ref.name);
      await this.#allocClusterIPs(spec, ref, write);
      if (hasNodePorts(spec)) await this.#initNodePorts(spec, ref.name, write);
      if (needsHealthCheck(spec)) await this.#allocHealthCheckNodePort(spec, write);
      return write;
    } catch (error) {
      await write.revert();
      throw error;
    }
  }

  async claimUpdate(obj: KubeObject, old: KubeObject, dryRun: boolean): Promise<ServiceClaims> {
    const spec = specOf(obj);
    const before = asObject(old.spec) ?? {};
    const ref = nameOf(obj);
    const write = new ServiceWrite(this.ips, this.nodePorts, dryRun);
    try {
      this.#initIPFamilyFields(spec, before, ref.name);
      await this.#updateClusterIPs(spec, before, ref, write);
      if (hasNodePorts(before) && (spec.type === "ExternalName" || spec.type === "ClusterIP")) {
        for (const port of nodePortsOf(before)) write.ports.releaseDeferred(port);
      }
      if (hasNodePorts(spec)) await this.#updateNodePorts(spec, before, ref.name, write);
      if (!needsHealthCheck(before) && needsHealthCheck(spec)) await this.#allocHealthCheckNodePort(spec, write);
      else if (needsHealthCheck(before) && !needsHealthCheck(spec)) {
        write.ports.releaseDeferred(Number(before.healthCheckNodePort ?? 0));
      }
      return write;
    } catch (error) {
      await write.revert();
      throw error;
    }
  }

  /** Frees what a deleted Service held (kube's releaseAllocatedResources). */
  async release(obj: KubeObject): Promise<void> {
    const spec = asObject(obj.spec) ?? {};
    if (spec.type !== "ExternalName" && !headless(spec)) {
      for (const ip of strings(spec.clusterIPs)) if (ip !== "") await this.ips.release(ip);
    }
    for (const port of nodePortsOf(spec)) await this.nodePorts.release(port);
    const health = Number(spec.healthCheckNodePort ?? 0);
    if (needsHealthCheck(spec) && health > 0) await this.nodePorts.release(health);
  }

  /** On create a client that names only clusterIP gets it in clusterIPs (kube's normalizeClusterIPs). */
  #normalizeClusterIPs(spec: JsonObject): void {
    if (text(spec.clusterIP) !== "" && strings(spec.clusterIPs).length === 0) spec.clusterIPs = [spec.clusterIP];
  }

  /** kube's initIPFamilyFields: ipFamilyPolicy and ipFamilies from the request and this cluster's families. */
  #initIPFamilyFields(spec: JsonObject, old: JsonObject | undefined, name: string): void {
    if (spec.type === "ExternalName") return;
    if (old !== undefined && this.#matchingPreferDualStack(spec, old)) return;
    if (spec.ipFamilyPolicy === undefined || spec.ipFamilyPolicy === null) {
      if (old !== undefined && typeof old.ipFamilyPolicy === "string") spec.ipFamilyPolicy = old.ipFamilyPolicy;
      else if (text(spec.clusterIP) === "None" && !hasSelector(spec)) spec.ipFamilyPolicy = "RequireDualStack";
      else spec.ipFamilyPolicy = "SingleStack";
    }
    const related = validateClusterIPs(spec);
    if (related.length > 0) throw invalid(serviceKind, name, related);

    const policyPath = "spec.ipFamilyPolicy";
    const errs: FieldError[] = [];
    const policy = spec.ipFamilyPolicy;
    if (old !== undefined) {
      if (policy === "SingleStack") {
        if (sameList(old.clusterIPs, spec.clusterIPs) && strings(spec.clusterIPs).length > 1) {
          spec.clusterIPs = strings(spec.clusterIPs).slice(0, 1);
        }
        if (sameList(old.ipFamilies, spec.ipFamilies) && strings(spec.ipFamilies).length > 1) {
          spec.ipFamilies = strings(spec.ipFamilies).slice(0, 1);
        }
      } else {
        const ips = strings(spec.clusterIPs);
        if (ips.length > 0 && ips.length < strings(old.clusterIPs).length) {
          errs.push(invalidField(policyPath, policy, "must be 'SingleStack' to release the secondary cluster IP"));
        }
        const families = strings(spec.ipFamilies);
        if (families.length > 0 && families.length < strings(old.ipFamilies).length) {
          errs.push(invalidField(policyPath, policy, "must be 'SingleStack' to release the secondary IP family"));
        }
      }
    }
    if (policy === "SingleStack") {
      if (strings(spec.clusterIPs).length === 2) {
        const detail = "must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified";
        errs.push(invalidField(policyPath, policy, detail));
      }
      if (strings(spec.ipFamilies).length === 2) {
        const detail = "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified";
        errs.push(invalidField(policyPath, policy, detail));
      }
    }
    const configured = this.ips.families();
    const families = strings(spec.ipFamilies);
    const ips = strings(spec.clusterIPs);
    for (const [i, ip] of ips.entries()) {
      if (ip === "None") break;
      const family = familyOf(ip) ?? "unknown";
      if (i >= families.length) {
        if (configured.includes(family as IPFamily)) families.push(family);
        else errs.push(invalidField(`spec.clusterIPs[${i}]`, ips, `${family} is not configured on this cluster`));
      }
    }
    if (families.length > 0) spec.ipFamilies = families;
    if (errs.length > 0) throw invalid(serviceKind, name, errs);

    const primary = configured[0] as IPFamily;
    if (text(spec.clusterIP) === "None" && !hasSelector(spec)) {
      if (families.length === 0) families.push(primary);
      if (families.length < 2 && spec.ipFamilyPolicy !== "SingleStack")
        families.push(otherFamily(families[0] as string));
      spec.ipFamilies = families;
      return;
    }
    if (spec.ipFamilyPolicy === "RequireDualStack" && configured.length < 2) {
      errs.push(
        invalidField(policyPath, spec.ipFamilyPolicy, "this cluster is not configured for dual-stack services"),
      );
    }
    for (const [i, family] of families.entries()) {
      if (!configured.includes(family as IPFamily)) {
        errs.push(invalidField(`spec.ipFamilies[${i}]`, family, "not configured on this cluster"));
      }
    }
    if (errs.length > 0) throw invalid(serviceKind, name, errs);
    if (families.length === 0) families.push(primary);
    if (spec.ipFamilyPolicy !== "SingleStack" && families.length === 1 && configured.length === 2) {
      families.push(otherFamily(families[0] as string));
    }
    spec.ipFamilies = families;
  }

  #matchingPreferDualStack(spec: JsonObject, old: JsonObject): boolean {
    if (spec.ipFamilyPolicy === undefined || spec.ipFamilyPolicy === null) return false;
    if (old.type !== spec.type) return false;
    if (!["ClusterIP", "NodePort", "LoadBalancer"].includes(text(spec.type))) return false;
    if (spec.ipFamilyPolicy !== "PreferDualStack") return false;
    if (old.ipFamilyPolicy !== undefined && old.ipFamilyPolicy !== "PreferDualStack") return false;
    return sameList(old.clusterIPs, spec.clusterIPs) && sameList(old.ipFamilies, spec.ipFamilies);
  }

  async #allocClusterIPs(spec: JsonObject, ref: ServiceRef, write: ServiceWrite): Promise<void> {
    if (spec.type === "ExternalName" || headless(spec)) return;
    const families = strings(spec.ipFamilies);
    const ips = strings(spec.clusterIPs);
    for (const [i, family] of families.entries()) {
      ips[i] = await this.#allocIP(spec, family as IPFamily, ips[i] ?? "", ref, write);
    }
    spec.clusterIPs = ips;
    if (ips[0] !== undefined) spec.clusterIP = ips[0];
  }

  async #allocIP(
    spec: JsonObject,
    family: IPFamily,
    ip: string,
    ref: ServiceRef,
    write: ServiceWrite,
  ): Promise<string> {
    const clusterIPs = strings(spec.clusterIPs);
    if (ip === "") {
      try {
        const picked = await this.ips.allocateNext(family, ref, write.dryRun);
        if (!write.dryRun) write.allocatedIPs.push(picked);
        return picked;
      } catch (error) {
        const message = (error as Error).message;
        if (message !== ipRangeFullMessage) {
          throw invalid(serviceKind, ref.name, [
            invalidField("spec.clusterIPs", clusterIPs, `failed to allocate IP: ${message}`),
          ]);
        }
        throw internal(`failed to allocate a serviceIP for Service "${ref.name}": ${message}`);
      }
    }
    try {
      await this.ips.allocate(ip, ref, write.dryRun);
    } catch (error) {
      const detail = `failed to allocate IP ${ip}: ${(error as Error).message}`;
      throw invalid(serviceKind, ref.name, [invalidField("spec.clusterIPs", clusterIPs, detail)]);
    }
    if (!write.dryRun) write.allocatedIPs.push(ip);
    return ip;
  }

  /** kube's updateClusterIPs: a type change to or from ExternalName, or a move between single and dual stack. */
  async #updateClusterIPs(spec: JsonObject, old: JsonObject, ref: ServiceRef, write: ServiceWrite): Promise<void> {
    if (this.#matchingPreferDualStack(spec, old)) return;
    if (old.type === "ExternalName" && spec.type !== "ExternalName") {
      await this.#allocClusterIPs(spec, ref, write);
      return;
    }
    if (headless(old)) return;
    const oldIPs = strings(old.clusterIPs);
    if (old.type !== "ExternalName" && spec.type === "ExternalName") {
      write.releasedIPs.push(...oldIPs.filter((ip) => ip !== ""));
      return;
    }
    const oldFamilies = strings(old.ipFamilies);
    const families = strings(spec.ipFamilies);
    if (oldFamilies.length === 1 && families.length === 2) {
      const ips = strings(spec.clusterIPs);
      ips[1] = await this.#allocIP(spec, families[1] as IPFamily, ips[1] ?? "", ref, write);
      spec.clusterIPs = ips;
    } else if (oldFamilies.length === 2 && families.length === 1 && oldIPs[1] !== undefined) {
      write.releasedIPs.push(oldIPs[1]);
    }
  }

  /** kube's initNodePorts: ports sharing a port number share a node port. */
  async #initNodePorts(spec: JsonObject, name: string, write: ServiceWrite): Promise<void> {
    const byPort = new Map<number, number>();
    const ports = portsOf(spec);
    for (const [i, port] of ports.entries()) {
      if (nodePortOf(port) === 0 && !shouldAllocateNodePorts(spec)) continue;
      const number = Number(port.port);
      const shared = byPort.get(number) ?? 0;
      if (shared === 0) {
        const requested = ports.find((p) => Number(p.port) === number && nodePortOf(p) !== 0);
        const wanted = requested === undefined ? 0 : nodePortOf(requested);
        if (wanted !== 0) {
          await this.#allocatePort(write, wanted, i, name);
          port.nodePort = wanted;
          byPort.set(number, wanted);
        } else {
          port.nodePort = await this.#allocateNextPort(write);
          byPort.set(number, port.nodePort as number);
        }
      } else if (nodePortOf(port) !== shared) {
        if (nodePortOf(port) === 0) port.nodePort = shared;
        else await this.#allocatePort(write, nodePortOf(port), i, name);
      }
    }
  }

  /** kube's updateNodePorts: new ports claimed, dropped ones freed on commit. */
  async #updateNodePorts(spec: JsonObject, old: JsonObject, name: string, write: ServiceWrite): Promise<void> {
    const oldPorts = nodePortsOf(old);
    const claimed = new Set<number>();
    const seen = new Set<string>();
    for (const [i, port] of portsOf(spec).entries()) {
      if (nodePortOf(port) === 0 && !shouldAllocateNodePorts(spec)) continue;
      const nodePort = nodePortOf(port);
      if (nodePort !== 0) {
        if (!oldPorts.includes(nodePort) && !claimed.has(nodePort)) {
          await this.#allocatePort(write, nodePort, i, name);
          claimed.add(nodePort);
        }
      } else {
        port.nodePort = await this.#allocateNextPort(write);
      }
      const key = `${text(port.protocol)}/${nodePortOf(port)}`;
      if (seen.has(key)) throw internal(`duplicate nodePort: {${text(port.protocol)} ${nodePortOf(port)}}`);
      seen.add(key);
    }
    const kept = new Set(nodePortsOf(spec));
    for (const port of oldPorts) if (!kept.has(port)) write.ports.releaseDeferred(port);
  }

  async #allocatePort(write: ServiceWrite, port: number, index: number, name: string): Promise<void> {
    try {
      await write.ports.allocate(port);
    } catch (error) {
      const field = `spec.ports[${index}].nodePort`;
      throw invalid(serviceKind, name, [invalidField(field, port, (error as Error).message)]);
    }
  }

  async #allocateNextPort(write: ServiceWrite): Promise<number> {
    try {
      return await write.ports.allocateNext();
    } catch (error) {
      throw internal(`failed to allocate a nodePort: ${(error as Error).message}`);
    }
  }

  async #allocHealthCheckNodePort(spec: JsonObject, write: ServiceWrite): Promise<void> {
    const requested = Number(spec.healthCheckNodePort ?? 0);
    if (requested !== 0) {
      try {
        await write.ports.allocate(requested);
      } catch (error) {
        const message = (error as Error).message;
        throw internal(`failed to allocate requested HealthCheck NodePort ${requested}: ${message}`);
      }
      return;
    }
    try {
      spec.healthCheckNodePort = await write.ports.allocateNext();
    } catch (error) {
      throw internal(`failed to allocate a HealthCheck NodePort 0: ${(error as Error).message}`);
    }
  }
}
