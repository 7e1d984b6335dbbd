// Cluster IPs as kube v1.36 records them: one networking.k8s.io/v1 IPAddress per address in use, named by
// the address and pointing at its Service, written through the server's own API so that a second writer of
// the same address gets AlreadyExists. Dynamic addresses are picked at random, from the range above the
// static band first (kube's ServiceIPStaticSubrange), then from the band.
import { StatusError } from "../errors/status-error.js";
import type { KubeObject } from "../object/kube-object.js";
import type { ResourceApi } from "../resources/resource-api.js";
import {
  containsServiceIP,
  firstAddress,
  type IPFamily,
  type IPRange,
  lastAddress,
  numberToIP,
  staticBandSize,
} from "./ip-range.js";
import { ipAddresses } from "./network-kinds.js";

export const ipAllocatedMessage = "provided IP is already allocated";
export const mismatchedNetworkMessage = "the provided network does not match the current range";
export const ipRangeFullMessage = "range is full";
/** The manager of the IPAddress objects, in their `ipaddress.kubernetes.io/managed-by` label. */
export const ipAllocatorName = "ipallocator.k8s.io";
export const ipFamilyLabel = "ipaddress.kubernetes.io/ip-family";
export const managedByLabel = "ipaddress.kubernetes.io/managed-by";

/** The Service an address belongs to. */
export interface ServiceRef {
  namespace: string;
  name: string;
}

function randomBigInt(below: bigint): bigint {
  // Ranges are at most 2^64 apart (IPv6 prefixes of 64 bits or longer): two 32-bit draws cover them.
  const draw = (BigInt(Math.floor(Math.random() * 2 ** 32)) << 32n) | BigInt(Math.floor(Math.random() * 2 ** 32));
  return below === 0n ? 0n : draw % below;
}

export class IPAllocator {
  constructor(
    private readonly api: ResourceApi,
    /** The ranges addresses come from, the primary first. */
    readonly ranges: readonly IPRange[],
    private readonly manager: string,
  ) {}

  families(): IPFamily[] {
    return this.ranges.map((r) => r.family);
  }

  rangeOf(family: IPFamily): IPRange | undefined {
    return this.ranges.find((r) => r.family === family);
  }

  /** Claims `ip` for the Service; a dry run only checks that the range holds it. */
  async allocate(ip: string, service: ServiceRef, dryRun: boolean): Promise<void> {
    const range = this.ranges.find((r) => containsServiceIP(r, ip));
    if (range === undefined) throw new Error(mismatchedNetworkMessage);
    if (dryRun) return;
    if (!(await this.#create(ip, range.family, service))) throw new Error(ipAllocatedMessage);
  }

  /** Claims a free address of the family; a dry run answers the range's network address, as kube's does. */
  async allocateNext(family: IPFamily, service: ServiceRef, dryRun: boolean): Promise<string> {
    const range = this.rangeOf(family);
    if (range === undefined) throw new Error(mismatchedNetworkMessage);
    if (dryRun) return numberToIP(range.network, family);
    const first = firstAddress(range);
    const last = lastAddress(range);
    const band = staticBandSize(range);
    const upper = await this.#claimFrom(range, first + band, last, service);
    if (upper !== undefined) return upper;
    const lower = band > 0n ? await this.#claimFrom(range, first, first + band - 1n, service) : undefined;
    if (lower === undefined) throw new Error(ipRangeFullMessage);
    return lower;
  }

  /** Frees `ip`; an address already gone is fine. */
  async release(ip: string): Promise<void> {
    try {
      await this.api.delete({ kind: ipAddresses, name: ip });
    } catch (error) {
      if (!(error instanceof StatusError && error.code === 404)) throw error;
    }
  }

  /** Every IPAddress this allocator manages. */
  async recorded(): Promise<KubeObject[]> {
    const { items } = await this.api.list(
      { kind: ipAddresses },
      { labelSelector: `${managedByLabel}=${ipAllocatorName}` },
    );
    return items.map((item) => item.object);
  }

  async #claimFrom(range: IPRange, from: bigint, to: bigint, service: ServiceRef): Promise<string | undefined> {
    if (to < from) return undefined;
    const count = to - from + 1n;
    const start = randomBigInt(count);
    for (let i = 0n; i < count; i++) {
      const ip = numberToIP(from + ((start + i) % count), range.family);
      if (await this.#create(ip, range.family, service)) return ip;
    }
    return undefined;
  }

  /** Writes the IPAddress; false when the address is taken. */
  async #create(ip: string, family: IPFamily, service: ServiceRef): Promise<boolean> {
    try {
      await this.api.create(
        { kind: ipAddresses },
        {
          apiVersion: "networking.k8s.io/v1",
          kind: "IPAddress",
          metadata: { name: ip, labels: { [ipFamilyLabel]: family, [managedByLabel]: ipAllocatorName } },
          spec: { parentRef: { resource: "services", namespace: service.namespace, name: service.name } },
        },
        { owner: { manager: this.manager } },
      );
      return true;
    } catch (error) {
      if (error instanceof StatusError && error.code === 409) return false;
      throw error;
    }
  }
}
