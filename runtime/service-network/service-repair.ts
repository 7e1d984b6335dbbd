// kube's repair loops for Service allocations (ipallocator/controller/repairip.go and
// portallocator/controller/repair.go), as one pass run at start and then periodically: every cluster IP a
// Service holds has its IPAddress (recreated when missing or pointing elsewhere), an IPAddress no Service
// holds goes once it is older than a create can take (60 s), and the node port record is rebuilt from the
// Services, a port no Service holds being freed only after three passes in a row found it so (a create
// in flight holds its port before its Service is stored).
import type { KubeObject } from "../object/kube-object.js";
import type { ResourceApi } from "../resources/resource-api.js";
import { asObject, type JsonObject, listItems } from "../validation/walk.js";
import { ipAllocatedMessage } from "./ip-allocator.js";
import { canonicalIP, containsServiceIP } from "./ip-range.js";
import { services } from "./network-kinds.js";
import type { ServiceNetwork } from "./service-network.js";

/** kube's grace before an IPAddress without its Service counts as leaked: the default request timeout. */
const orphanGraceMs = 60_000;
/** kube's numRepairsBeforeLeakCleanup. */
const passesBeforeLeakCleanup = 3;

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function specOf(obj: KubeObject): JsonObject {
  return asObject(obj.spec) ?? {};
}

function metaOf(obj: KubeObject): JsonObject {
  return asObject(obj.metadata) ?? {};
}

/** The node ports a Service holds, its health check node port included. */
export function serviceNodePorts(spec: JsonObject): number[] {
  const ports = listItems(spec.ports)
    .map((p) => Number(asObject(p)?.nodePort ?? 0))
    .filter((p) => p > 0);
  const health = Number(spec.healthCheckNodePort ?? 0);
  if (spec.type === "LoadBalancer" && spec.externalTrafficPolicy === "Local" && health > 0) ports.push(health);
  return ports;
}

export class ServiceRepair {
  readonly #portLeaks = new Map<number, number>();

  constructor(
    private readonly api: ResourceApi,
    private readonly network: ServiceNetwork,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async run(): Promise<void> {
    const { items } = await this.api.list({ kind: services });
    const all = items.map((item) => item.object);
    await this.#repairIPs(all);
    await this.#repairNodePorts(all);
  }

  async #repairIPs(all: KubeObject[]): Promise<void> {
    const held = new Map<string, { namespace: string; name: string }>();
    for (const svc of all) {
      const spec = specOf(svc);
      if (spec.type === "ExternalName") continue;
      for (const raw of listItems(spec.clusterIPs)) {
        const ip = canonicalIP(text(raw));
        if (ip === undefined || !this.network.ips.ranges.some((r) => containsServiceIP(r, ip))) continue;
        held.set(ip, { namespace: text(metaOf(svc).namespace), name: text(metaOf(svc).name) });
      }
    }
    const recorded = new Map<string, KubeObject>();
    for (const address of await this.network.ips.recorded()) recorded.set(text(metaOf(address).name), address);

    for (const [ip, owner] of held) {
      const record = recorded.get(ip);
      const parent = asObject(asObject(record?.spec)?.parentRef) ?? {};
      const pointsAtOwner =
        parent.resource === "services" && parent.namespace === owner.namespace && parent.name === owner.name;
      if (record !== undefined && pointsAtOwner) continue;
      if (record !== undefined) await this.network.ips.release(ip);
      await this.#record(ip, owner);
    }
    for (const [ip, record] of recorded) {
      if (held.has(ip)) continue;
      const created = Date.parse(text(metaOf(record).creationTimestamp));
      if (this.now().getTime() - created > orphanGraceMs) await this.network.ips.release(ip);
    }
  }

  async #record(ip: string, owner: { namespace: string; name: string }): Promise<void> {
    try {
      await this.network.ips.allocate(ip, owner, false);
    } catch (error) {
      // Another writer recorded it meanwhile; the next pass looks again.
      if ((error as Error).message !== ipAllocatedMessage) throw error;
    }
  }

  async #repairNodePorts(all: KubeObject[]): Promise<void> {
    const held = new Set(all.flatMap((svc) => serviceNodePorts(specOf(svc))));
    await this.network.nodePorts.rebuild((used) => {
      const kept = new Set(held);
      for (const port of used) {
        if (held.has(port)) {
          this.#portLeaks.delete(port);
          continue;
        }
        const seen = (this.#portLeaks.get(port) ?? 0) + 1;
        if (seen >= passesBeforeLeakCleanup) this.#portLeaks.delete(port);
        else {
          this.#portLeaks.set(port, seen);
          kept.add(port);
        }
      }
      return kept;
    });
  }
}
