// kube-aggregator's local availability controller: an APIService served by the server itself (no
// spec.service) is always available, so its status carries the condition Available=True, reason Local. The
// transition time changes only when the condition's status does. APIServices naming a service are left to
// a remote availability check, which kapi does not run (it does not proxy to other servers).
import { isDeepStrictEqual } from "node:util";
import type { KubeObject } from "../object/kube-object.js";
import type { ResourceApi } from "../resources/resource-api.js";
import { statusCode } from "./api-errors.js";
import type { ApiServiceShape } from "./apiservice-autoregistration.js";
import type { ControllerContext } from "./controller-context.js";
import { followObjects } from "./follow-objects.js";
import { WorkQueue } from "./work-queue.js";

interface Condition {
  type?: string;
  status?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

const localAvailable = { type: "Available", status: "True", reason: "Local" } as const;
const localAvailableMessage = "Local APIServices are always available";

/** Seconds-precision RFC 3339, as metav1.Time is written. */
function now(): string {
  return `${new Date().toISOString().slice(0, 19)}Z`;
}

/** The conditions with Available set as kube's SetAPIServiceCondition sets it. */
export function withLocalAvailable(conditions: readonly Condition[]): Condition[] {
  const out = conditions.map((c) => ({ ...c }));
  const existing = out.find((c) => c.type === localAvailable.type);
  if (existing === undefined) {
    const { type, status, reason } = localAvailable;
    out.push({ type, status, lastTransitionTime: now(), reason, message: localAvailableMessage });
    return out;
  }
  if (existing.status !== localAvailable.status) {
    existing.status = localAvailable.status;
    existing.lastTransitionTime = now();
  }
  existing.reason = localAvailable.reason;
  existing.message = localAvailableMessage;
  return out;
}

export class ApiServiceLocalAvailability {
  private readonly apiServices;
  private readonly queue: WorkQueue<string>;

  constructor(
    private readonly api: ResourceApi,
    private readonly options: ControllerContext,
  ) {
    const kind = api.kinds.servedKind("apiregistration.k8s.io", "v1", "apiservices");
    if (kind === undefined) throw new Error("apiregistration.k8s.io/v1 is not served");
    this.apiServices = kind;
    this.queue = new WorkQueue((name) => this.sync(name), {
      name: "local APIService availability controller",
      log: options.log,
      // Five workers, as kube-aggregator runs this controller.
      workers: 5,
    });
  }

  async run(): Promise<void> {
    await followObjects(
      this.api,
      { kind: this.apiServices },
      (event) => {
        if (event.type !== "DELETED") this.queue.add(String((event.object as ApiServiceShape).metadata?.name));
      },
      { ...this.options, name: "local APIService availability controller" },
    );
    await this.queue.stop();
  }

  private async sync(name: string): Promise<undefined> {
    let current: ApiServiceShape;
    try {
      current = (await this.api.get({ kind: this.apiServices, name })).object as ApiServiceShape;
    } catch (error) {
      if (statusCode(error) === 404) return undefined;
      throw error;
    }
    if (current.spec?.service !== undefined && current.spec.service !== null) return undefined;
    const conditions = withLocalAvailable((current.status?.conditions ?? []) as Condition[]);
    if (isDeepStrictEqual(conditions, current.status?.conditions ?? [])) return undefined;
    try {
      await this.api.update(
        { kind: this.apiServices, name, subresource: "status" },
        { ...(current as KubeObject), status: { ...current.status, conditions } },
      );
    } catch (error) {
      // Changed or gone in the meantime: its event brings it back here.
      const code = statusCode(error);
      if (code !== 404 && code !== 409) throw error;
    }
    return undefined;
  }
}
