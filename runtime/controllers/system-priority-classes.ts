// kube-apiserver's scheduling/bootstrap-system-priority-classes hook: the two system PriorityClasses are
// created at start when missing, trying every second for 30 seconds. They are not recreated later: kube
// refuses to delete them.
import type { ResourceApi } from "../resources/resource-api.js";
import { statusCode, statusReason } from "./api-errors.js";
import { apiserverOwner, pause, priorityClasses } from "./apiserver-kinds.js";
import type { ControllerContext } from "./controller-context.js";

/** kube's SystemPriorityClasses, in the order it creates them. */
export const systemPriorityClasses: readonly { name: string; value: number; description: string }[] = [
  {
    name: "system-node-critical",
    value: 2000001000,
    description: "Used for system critical pods that must not be moved from their current node.",
  },
  {
    name: "system-cluster-critical",
    value: 2000000000,
    description:
      "Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.",
  },
];

export interface SystemPriorityClassesOptions {
  /** Between attempts; default 1 s. */
  retryMs?: number;
  /** Gives up after; default 30 s. */
  timeoutMs?: number;
}

/** Creates the missing system PriorityClasses; rejects when they cannot be created within the timeout. */
export async function ensureSystemPriorityClasses(
  api: ResourceApi,
  context: ControllerContext,
  options: SystemPriorityClassesOptions = {},
): Promise<void> {
  const retryMs = options.retryMs ?? 1000;
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  for (;;) {
    try {
      if (await createMissing(api)) return;
    } catch (error) {
      throw new Error(`unable to add default system priority classes: ${String(error)}`);
    }
    if (context.signal.aborted) return;
    if (Date.now() + retryMs > deadline) {
      throw new Error("unable to add default system priority classes: timed out waiting for the condition");
    }
    await pause(retryMs, context.signal);
  }
}

/** True once every class exists; false to try again; throws on an error kube does not retry. */
async function createMissing(api: ResourceApi): Promise<boolean> {
  for (const { name, value, description } of systemPriorityClasses) {
    try {
      await api.get({ kind: priorityClasses, name });
      continue;
    } catch (error) {
      if (statusCode(error) !== 404) return false;
    }
    try {
      const object = {
        apiVersion: "scheduling.k8s.io/v1",
        kind: "PriorityClass",
        metadata: { name },
        value,
        description,
      };
      await api.create({ kind: priorityClasses }, object, { owner: apiserverOwner });
    } catch (error) {
      if (statusReason(error) === "AlreadyExists") continue;
      if (statusCode(error) === 503) return false;
      throw error;
    }
  }
  return true;
}
