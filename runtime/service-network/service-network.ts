// One server's service network: its ranges (the flags), the allocators of cluster IPs (IPAddress objects)
// and node ports (the RangeAllocation record), and the Service allocation the Service strategy's claim and
// release hooks run. startServer registers it under `serviceNetworkKey` in the ResourceApi's locals.
import type { KubeObject } from "../object/kube-object.js";
import type { ServerLocalKey } from "../registry/server-locals.js";
import type { ResourceApi } from "../resources/resource-api.js";
import { IPAllocator } from "./ip-allocator.js";
import { NodePortAllocator } from "./node-port-allocator.js";
import { ServiceAllocation } from "./service-allocation.js";
import type { ServiceNetworkConfig } from "./service-network-config.js";

/** The field manager kube-apiserver writes its own objects as. */
export const apiserverManager = "kube-apiserver";

export class ServiceNetwork {
  readonly ips: IPAllocator;
  readonly nodePorts: NodePortAllocator;
  readonly allocation: ServiceAllocation;

  constructor(
    api: ResourceApi,
    readonly config: ServiceNetworkConfig,
    /** Where failures nobody waits for go (a release after a delete): the repair pass fixes what they leave. */
    readonly log: (message: string, error: unknown) => void,
  ) {
    this.ips = new IPAllocator(api, config.ranges, apiserverManager);
    this.nodePorts = new NodePortAllocator(api.context.store, config.nodePorts);
    this.allocation = new ServiceAllocation(this.ips, this.nodePorts);
  }

  /** Frees what a deleted Service held; the delete already happened, so a failure is only logged. */
  async release(obj: KubeObject): Promise<void> {
    try {
      await this.allocation.release(obj);
    } catch (error) {
      this.log("releasing the allocations of a deleted Service failed", error);
    }
  }
}

export const serviceNetworkKey: ServerLocalKey<ServiceNetwork> = { name: "service-network" };
