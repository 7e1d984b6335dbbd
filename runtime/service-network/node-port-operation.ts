// The node ports one Service write claims and frees (kube's PortAllocationOperation): claims happen at once
// and are undone by revert; frees wait for commit, so a failed write keeps the old ports. A dry run claims
// nothing and answers what kube's dry run answers (free-looking ports counted up from 32769).
import type { NodePortAllocator } from "./node-port-allocator.js";
import { portAllocatedMessage } from "./node-port-allocator.js";

/** The first port kube's dry run hands out, whatever the range. */
const dryRunFirstPort = 32769;

export class NodePortOperation {
  readonly #allocated: number[] = [];
  readonly #releaseLater: number[] = [];

  constructor(
    private readonly ports: NodePortAllocator,
    private readonly dryRun: boolean,
  ) {}

  async allocate(port: number): Promise<void> {
    if (this.dryRun) {
      if (this.#allocated.includes(port) || (await this.ports.has(port))) throw new Error(portAllocatedMessage);
      this.#allocated.push(port);
      return;
    }
    await this.ports.allocate(port);
    this.#allocated.push(port);
  }

  async allocateNext(): Promise<number> {
    if (this.dryRun) {
      const port = this.#allocated.length === 0 ? dryRunFirstPort : Math.max(...this.#allocated) + 1;
      this.#allocated.push(port);
      return port;
    }
    const port = await this.ports.allocateNext();
    this.#allocated.push(port);
    return port;
  }

  releaseDeferred(port: number): void {
    this.#releaseLater.push(port);
  }

  async commit(): Promise<void> {
    if (this.dryRun) return;
    for (const port of this.#releaseLater) await this.ports.release(port);
  }

  async revert(): Promise<void> {
    if (this.dryRun) return;
    for (const port of this.#allocated.splice(0)) await this.ports.release(port);
  }
}
