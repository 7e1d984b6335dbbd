// The namespaces kube-apiserver creates itself (its bootstrap and system-namespaces controllers): present
// from the start and created again when one is deleted (kube-node-lease is the only one that can be).
import type { ResourceApi } from "../resources/resource-api.js";
import { statusReason } from "./api-errors.js";
import { apiserverOwner } from "./apiserver-kinds.js";
import type { ControllerContext } from "./controller-context.js";
import { namespaces } from "./core-kinds.js";
import { followObjects } from "./follow-objects.js";
import { WorkQueue } from "./work-queue.js";

export const systemNamespaces: readonly string[] = ["default", "kube-system", "kube-public", "kube-node-lease"];

export async function createNamespaceIfMissing(api: ResourceApi, name: string): Promise<void> {
  try {
    await api.create(
      { kind: namespaces },
      { apiVersion: "v1", kind: "Namespace", metadata: { name } },
      { owner: apiserverOwner },
    );
  } catch (error) {
    if (statusReason(error) !== "AlreadyExists") throw error;
  }
}

export class SystemNamespaces {
  private readonly queue: WorkQueue<string>;

  constructor(
    private readonly api: ResourceApi,
    private readonly options: ControllerContext,
  ) {
    this.queue = new WorkQueue(
      async (name) => {
        await createNamespaceIfMissing(api, name);
        return undefined;
      },
      { name: "system namespaces", log: options.log },
    );
  }

  /** Creates the namespaces that are missing; one that fails is logged and retried with backoff. */
  async ensure(): Promise<void> {
    await Promise.all(
      systemNamespaces.map(async (name) => {
        try {
          await createNamespaceIfMissing(this.api, name);
        } catch (error) {
          this.options.log(`system namespaces: creating ${name} failed`, error);
          this.queue.add(name);
        }
      }),
    );
  }

  /** Recreates a system namespace once it is gone (checking all whenever its watch starts), until the signal aborts. */
  async run(): Promise<void> {
    await followObjects(
      this.api,
      { kind: namespaces },
      (event) => {
        const name = String((event.object.metadata as { name: string }).name);
        if (event.type === "DELETED" && systemNamespaces.includes(name)) this.queue.add(name);
      },
      {
        ...this.options,
        name: "system namespaces",
        onWatch: () => {
          for (const name of systemNamespaces) this.queue.add(name);
        },
      },
    );
    await this.queue.stop();
  }
}
