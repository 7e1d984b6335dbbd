// kube-apiserver's default ServiceCIDR controller (pkg/controlplane/controller/defaultservicecidr; post-start
// hook `start-kubernetes-service-cidr-controller`): the cluster-scoped ServiceCIDR `kubernetes` holds the
// `--service-cluster-ip-range` ranges, is created when missing (at start and every 10 s), moves from single
// to dual stack when the flag gained a second range, and gets its Ready condition once its ranges match.
import type { KubeObject } from "../object/kube-object.js";
import type { ResourceApi } from "../resources/resource-api.js";
import { formatTime } from "../resources/timestamps.js";
import { serviceCIDRs } from "../service-network/network-kinds.js";
import { asObject, listItems } from "../validation/walk.js";
import { statusCode } from "./api-errors.js";
import { apiserverOwner, pause } from "./apiserver-kinds.js";
import type { ControllerContext } from "./controller-context.js";

export const defaultServiceCIDRName = "kubernetes";
/** The manager of the Ready condition it applies. */
const controllerManager = "kubernetes-service-cidr-controller";
/** kube's interval, the endpoint reconciler's. */
const syncIntervalMs = 10_000;

function cidrsOf(obj: KubeObject): string[] {
  return listItems(asObject(obj.spec)?.cidrs).filter((c): c is string => typeof c === "string");
}

function readyStatus(obj: KubeObject): string | undefined {
  const conditions = listItems(asObject(obj.status)?.conditions).map((c) => asObject(c) ?? {});
  const ready = conditions.find((c) => c.type === "Ready");
  return typeof ready?.status === "string" ? ready.status : undefined;
}

export class DefaultServiceCIDRController {
  constructor(
    private readonly api: ResourceApi,
    /** The flag's ranges as Go prints them, the primary first. */
    private readonly cidrs: readonly string[],
    private readonly context: ControllerContext,
  ) {}

  /** One pass; the start-up hook waits for the first. */
  async sync(): Promise<void> {
    const target = { kind: serviceCIDRs, name: defaultServiceCIDRName };
    let current: KubeObject | undefined;
    try {
      current = (await this.api.get(target)).object;
    } catch (error) {
      if (statusCode(error) !== 404) throw error;
    }
    if (current === undefined) {
      try {
        current = await this.api.create(
          target,
          {
            apiVersion: "networking.k8s.io/v1",
            kind: "ServiceCIDR",
            metadata: { name: defaultServiceCIDRName },
            spec: { cidrs: [...this.cidrs] },
          },
          { owner: apiserverOwner },
        );
      } catch (error) {
        if (statusCode(error) !== 409) throw error;
        current = (await this.api.get(target)).object;
      }
    }
    const cidrs = cidrsOf(current);
    if (this.cidrs.length === 2 && cidrs.length === 1 && cidrs[0] === this.cidrs[0]) {
      const upgraded = structuredClone(current);
      (upgraded.spec as { cidrs: string[] }).cidrs = [...this.cidrs];
      await this.api.update(target, upgraded, { owner: apiserverOwner });
      return;
    }
    await this.#syncStatus(current);
  }

  async run(): Promise<void> {
    const { signal } = this.context;
    while (!signal.aborted) {
      await pause(syncIntervalMs, signal);
      if (signal.aborted) return;
      try {
        await this.sync();
      } catch (error) {
        this.context.log("default service CIDR controller: sync failed", error);
      }
    }
  }

  async #syncStatus(current: KubeObject): Promise<void> {
    if (asObject(current.metadata)?.deletionTimestamp !== undefined) return;
    const cidrs = cidrsOf(current);
    const sameConfig = cidrs.length === this.cidrs.length && cidrs.every((c, i) => c === this.cidrs[i]);
    const status = readyStatus(current);
    if (!sameConfig || status === "True" || status === "False") return;
    const condition = {
      type: "Ready",
      status: "True",
      lastTransitionTime: formatTime(this.api.context.now()),
      // kube applies no reason; Go's Condition then shows it empty.
      reason: "",
      message: "Kubernetes default Service CIDR is ready",
    };
    await this.api.apply(
      { kind: serviceCIDRs, name: defaultServiceCIDRName, subresource: "status" },
      {
        apiVersion: "networking.k8s.io/v1",
        kind: "ServiceCIDR",
        metadata: { name: defaultServiceCIDRName },
        status: { conditions: [condition] },
      },
      { fieldManager: controllerManager, force: true },
    );
  }
}
