// kube-apiserver's Service allocation repair (post-start hook `start-service-ip-repair-controllers`): one
// pass at start, which the hook waits for, then one every 3 minutes (kube's repairLoopInterval).
import type { ResourceApi } from "../resources/resource-api.js";
import type { ServiceNetwork } from "../service-network/service-network.js";
import { ServiceRepair } from "../service-network/service-repair.js";
import { pause } from "./apiserver-kinds.js";
import type { ControllerContext } from "./controller-context.js";

const repairIntervalMs = 3 * 60_000;

export class ServiceRepairLoop {
  private readonly repair: ServiceRepair;

  constructor(
    api: ResourceApi,
    network: ServiceNetwork,
    private readonly context: ControllerContext,
  ) {
    this.repair = new ServiceRepair(api, network, api.context.now);
  }

  /** The first pass. */
  runOnce(): Promise<void> {
    return this.repair.run();
  }

  async run(): Promise<void> {
    const { signal } = this.context;
    while (!signal.aborted) {
      await pause(repairIntervalMs, signal);
      if (signal.aborted) return;
      try {
        await this.repair.run();
      } catch (error) {
        this.context.log("service allocation repair failed", error);
      }
    }
  }
}
