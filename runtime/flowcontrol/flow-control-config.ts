// kube-apiserver's APF configuration consumer: it follows the FlowSchemas and PriorityLevelConfigurations
// (watches through ResourceApi, in-process), rebuilds the classifier and the priority levels from what is
// stored whenever either changes, and writes each FlowSchema's `Dangling` condition by server-side apply of
// its status as `api-priority-and-fairness-config-consumer-v1`, as kube does.
import type { FlowSchema, PriorityLevelConfiguration } from "../../generated/flowcontrol.apiserver.k8s.io/v1/types.js";
import { statusCode } from "../controllers/api-errors.js";
import { flowSchemas, pause, priorityLevelConfigurations } from "../controllers/apiserver-kinds.js";
import type { ErrorLog } from "../http/write-error.js";
import type { ServedKind } from "../registry/served-kind.js";
import type { ResourceApi } from "../resources/resource-api.js";
import type { FlowControl } from "./flow-control.js";

const fieldManager = "api-priority-and-fairness-config-consumer-v1";
const retryMs = 1000;

export class FlowControlConfig {
  private dirty = true;
  private wake: (() => void) | undefined;
  private firstSync: Promise<void>;
  private firstSynced!: () => void;

  constructor(
    private readonly api: ResourceApi,
    private readonly flowControl: FlowControl,
    private readonly log: ErrorLog,
  ) {
    this.firstSync = new Promise((resolve) => {
      this.firstSynced = resolve;
    });
  }

  /** Resolves once the stored configuration was first taken in (at once when the API is not served). */
  synced(): Promise<void> {
    return this.firstSync;
  }

  /** Follows the configuration until `signal` aborts. */
  async run(signal: AbortSignal): Promise<void> {
    if (!this.api.kinds.servesBuiltin("flowcontrol.apiserver.k8s.io", "v1")) {
      this.firstSynced();
      return;
    }
    const onAbort = () => this.wake?.();
    signal.addEventListener("abort", onAbort, { once: true });
    const followed = [this.follow(flowSchemas, signal), this.follow(priorityLevelConfigurations, signal)];
    while (!signal.aborted) {
      if (this.dirty) {
        this.dirty = false;
        try {
          await this.sync();
          this.firstSynced();
        } catch (error) {
          if (signal.aborted) break;
          this.log("API priority and fairness configuration not taken in, will retry", error);
          this.dirty = true;
          await pause(retryMs, signal);
          continue;
        }
      }
      if (!this.dirty) await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
    signal.removeEventListener("abort", onAbort);
    this.firstSynced();
    await Promise.all(followed);
  }

  private async follow(kind: ServedKind, signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      try {
        const watch = await this.api.watch({ kind }, {}, signal);
        for await (const _event of watch) {
          this.dirty = true;
          this.wake?.();
        }
      } catch (error) {
        if (!signal.aborted) this.log(`watching ${kind.resource} for API priority and fairness`, error);
      }
      // The watch ended (the server closes, or it fell behind): look again from what is stored.
      this.dirty = true;
      this.wake?.();
      await pause(retryMs, signal);
    }
  }

  private async sync(): Promise<void> {
    const [levels, schemas] = await Promise.all([
      this.api.list({ kind: priorityLevelConfigurations }),
      this.api.list({ kind: flowSchemas }),
    ]);
    const updates = this.flowControl.configure(
      levels.items.map((item) => item.object as PriorityLevelConfiguration),
      schemas.items.map((item) => item.object as FlowSchema),
    );
    for (const { name, condition } of updates) {
      const status = {
        apiVersion: "flowcontrol.apiserver.k8s.io/v1",
        kind: "FlowSchema",
        metadata: { name },
        status: { conditions: [condition] },
      };
      try {
        await this.api.apply({ kind: flowSchemas, name, subresource: "status" }, JSON.stringify(status), {
          fieldManager,
          force: true,
        });
      } catch (error) {
        // Deleted meanwhile: its deletion is the next change to take in.
        if (statusCode(error) !== 404) throw error;
      }
    }
  }
}
