// kube-controller-manager's disruption controller: keeps each PodDisruptionBudget's status current (the pods
// its selector picks, how many are healthy, how many must be, how many disruptions that allows, the
// DisruptionAllowed condition), and forgets evictions (status.disruptedPods) whose pod started deleting or
// outlived the 2-minute deletion timeout. A budget whose expected count cannot be worked out gets
// disruptionsAllowed 0 and a SyncFailed condition. It also sets back to False the DisruptionTarget
// condition of pods that were marked for disruption 2 minutes ago and are still not deleting.
//
// Unlike kube, it also re-syncs a namespace's budgets when a workload controller changes: kapi runs no
// ReplicaSet or StatefulSet controller, so a new scale would otherwise wait for the next pod change.
import type { KubeObject } from "../object/kube-object.js";
import { builtinKind } from "../registry/kinds.js";
import type { ServedKind } from "../registry/served-kind.js";
import type { ResourceApi } from "../resources/resource-api.js";
import { formatTime } from "../resources/timestamps.js";
import type { LabelSelector } from "../selection/label-selector.js";
import { type LabelSelectorObject, labelSelectorFromObject } from "../selection/label-selector-object.js";
import { statusCode } from "./api-errors.js";
import type { ControllerContext } from "./controller-context.js";
import { getExisting, updateExisting } from "./existing-objects.js";
import { followObjects, trackKnown } from "./follow-objects.js";
import { updateWithRetry } from "./update-with-retry.js";
import { WorkQueue } from "./work-queue.js";

const name = "disruption controller";
/** kube's DeletionTimeout: an evicted pod not deleting after this no longer counts as disrupted. */
const deletionTimeoutMs = 2 * 60_000;
/** kube's stalePodDisruptionTimeout. */
const stalePodDisruptionTimeoutMs = 2 * 60_000;

const pods = builtinKind("", "v1", "pods");
const budgets = builtinKind("policy", "v1", "poddisruptionbudgets");
const replicationControllers = builtinKind("", "v1", "replicationcontrollers");
const replicaSets = builtinKind("apps", "v1", "replicasets");
const deployments = builtinKind("apps", "v1", "deployments");
const statefulSets = builtinKind("apps", "v1", "statefulsets");

interface OwnerReference {
  apiVersion?: string;
  kind?: string;
  name?: string;
  uid?: string;
  controller?: boolean;
}

interface Condition {
  type?: string;
  status?: string;
  observedGeneration?: number;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
  lastProbeTime?: string | null;
}

interface Meta {
  name?: string;
  namespace?: string;
  uid?: string;
  generation?: number;
  labels?: Record<string, string>;
  deletionTimestamp?: string | null;
  ownerReferences?: OwnerReference[];
}

interface PodShape {
  metadata?: Meta;
  status?: { phase?: string; conditions?: Condition[] };
}

export interface BudgetStatus {
  observedGeneration?: number;
  disruptedPods?: Record<string, string>;
  disruptionsAllowed?: number;
  currentHealthy?: number;
  desiredHealthy?: number;
  expectedPods?: number;
  conditions?: Condition[];
}

interface BudgetShape {
  metadata?: Meta;
  spec?: {
    selector?: LabelSelectorObject | null;
    minAvailable?: number | string;
    maxUnavailable?: number | string;
  };
  status?: BudgetStatus;
}

const metaOf = (obj: { metadata?: Meta }): Meta => obj.metadata ?? {};
const keyOf = (obj: { metadata?: Meta }): string => `${metaOf(obj).namespace}/${metaOf(obj).name}`;
const isDeleting = (pod: PodShape): boolean => (metaOf(pod).deletionTimestamp ?? null) !== null;

/** kube's IsPodReady: the Ready condition is True, whatever the phase. */
function isReady(pod: PodShape): boolean {
  return (pod.status?.conditions ?? []).some((c) => c.type === "Ready" && c.status === "True");
}

/** A null selector selects nothing, an empty one everything (policy/v1). */
function selectorOf(budget: BudgetShape): LabelSelector {
  const parsed = labelSelectorFromObject(budget.spec?.selector);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.selector;
}

function selects(budget: BudgetShape, pod: PodShape): boolean {
  const parsed = labelSelectorFromObject(budget.spec?.selector);
  return parsed.ok && parsed.selector.matches(metaOf(pod).labels ?? {});
}

/** kube's GetScaledValueFromIntOrPercent, rounding up. */
function scaledValue(value: number | string, total: number): number {
  if (typeof value === "number") return value;
  if (!value.endsWith("%")) throw new Error("invalid value for IntOrString: invalid type: string is not a percentage");
  const digits = value.slice(0, -1);
  if (!/^[+-]?\d+$/.test(digits)) {
    throw new Error(
      `invalid value for IntOrString: invalid value "${value}": strconv.Atoi: parsing "${digits}": invalid syntax`,
    );
  }
  return Math.ceil((Number(digits) * total) / 100);
}

/** apiVersion's group, as schema.ParseGroupVersion reads it. */
function groupOf(apiVersion: string): { group: string; version: string } {
  if (apiVersion === "" || apiVersion === "/") return { group: "", version: "" };
  const parts = apiVersion.split("/");
  if (parts.length === 1) return { group: "", version: apiVersion };
  if (parts.length === 2) return { group: parts[0] as string, version: parts[1] as string };
  throw new Error(`unexpected GroupVersion string: ${apiVersion}`);
}

function controllerOf(obj: { metadata?: Meta }): OwnerReference | undefined {
  return metaOf(obj).ownerReferences?.find((ref) => ref.controller === true);
}

function refersTo(ref: OwnerReference, kind: string, groups: readonly string[]): boolean {
  return ref.kind === kind && groups.includes(groupOf(ref.apiVersion ?? "").group);
}

/** The uid and replicas of the controller a finder found (it answers undefined for "not mine"). */
type Scale = { uid: string; replicas: number };

interface WantedCondition {
  type: string;
  status: string;
  observedGeneration: number;
  reason: string;
  message: string;
}

/** kube's SetStatusCondition: the transition time moves only when the status does. */
function setCondition(conditions: Condition[], wanted: WantedCondition, now: string): Condition[] {
  const index = conditions.findIndex((c) => c.type === wanted.type);
  const { type, status, observedGeneration, reason, message } = wanted;
  const shaped = (lastTransitionTime: string): Condition => ({
    type,
    status,
    ...(observedGeneration ? { observedGeneration } : {}),
    lastTransitionTime,
    reason,
    message,
  });
  if (index < 0) return [...conditions, shaped(now)];
  const existing = conditions[index] as Condition;
  const updated = shaped(existing.status === status ? (existing.lastTransitionTime ?? now) : now);
  return conditions.map((c, i) => (i === index ? updated : c));
}

/** kube's UpdateDisruptionAllowedCondition over a status whose disruptionsAllowed is set. */
export function withDisruptionAllowedCondition(status: BudgetStatus, now: string): Condition[] {
  const allowed = (status.disruptionsAllowed ?? 0) > 0;
  return setCondition(
    status.conditions ?? [],
    {
      type: "DisruptionAllowed",
      status: allowed ? "True" : "False",
      observedGeneration: status.observedGeneration ?? 0,
      reason: allowed ? "SufficientPods" : "InsufficientPods",
      message: "",
    },
    now,
  );
}

/** kube's ConditionsAreUpToDate. */
function conditionsUpToDate(budget: BudgetShape): boolean {
  const status = budget.status ?? {};
  const condition = (status.conditions ?? []).find((c) => c.type === "DisruptionAllowed");
  if (condition === undefined || (status.observedGeneration ?? 0) !== (metaOf(budget).generation ?? 0)) return false;
  if ((status.disruptionsAllowed ?? 0) > 0) return condition.status === "True" && condition.reason === "SufficientPods";
  return condition.status === "False" && condition.reason === "InsufficientPods";
}

function sameDisrupted(a: Record<string, string> | undefined, b: Record<string, string>): boolean {
  const left = a ?? {};
  const keys = Object.keys(left);
  return (
    keys.length === Object.keys(b).length && keys.every((k) => Date.parse(left[k] as string) === Date.parse(b[k] ?? ""))
  );
}

export class DisruptionController {
  private readonly queue: WorkQueue<string>;
  private readonly staleQueue: WorkQueue<string>;
  /** The budgets seen, by namespace/name, to find those a pod or a workload concerns. */
  private readonly known = new Map<string, BudgetShape>();
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly api: ResourceApi,
    private readonly options: ControllerContext,
  ) {
    this.queue = new WorkQueue((key) => this.sync(key), { name, log: options.log });
    this.staleQueue = new WorkQueue((key) => this.clearStaleDisruption(key), {
      name: `${name} (stale DisruptionTarget conditions)`,
      log: options.log,
    });
  }

  async run(): Promise<void> {
    const follow = { ...this.options, name };
    const onWorkload = (event: { object: KubeObject }) => this.enqueueNamespace(String(metaOf(event.object).namespace));
    await Promise.all([
      followObjects(
        this.api,
        { kind: budgets },
        trackKnown(this.known, (key) => this.queue.add(key)),
        follow,
      ),
      followObjects(
        this.api,
        { kind: pods },
        (event) => {
          const pod = event.object as PodShape;
          for (const [key, budget] of this.known) {
            if (metaOf(budget).namespace === metaOf(pod).namespace && selects(budget, pod)) this.queue.add(key);
          }
          if (event.type !== "DELETED") this.scheduleStaleCheck(pod);
        },
        follow,
      ),
      ...[replicationControllers, replicaSets, deployments, statefulSets]
        .filter((kind) => this.api.kinds.servesBuiltin(kind.group, kind.version))
        .map((kind) => followObjects(this.api, { kind }, onWorkload, follow)),
    ]);
    for (const timer of this.timers) clearTimeout(timer);
    await Promise.all([this.queue.stop(), this.staleQueue.stop()]);
  }

  private enqueueNamespace(namespace: string): void {
    for (const [key, budget] of this.known) if (metaOf(budget).namespace === namespace) this.queue.add(key);
  }

  private after(ms: number, then: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (!this.options.signal.aborted) then();
    }, ms);
    timer.unref();
    this.timers.add(timer);
  }

  private async sync(key: string): Promise<undefined> {
    const [namespace, budgetName] = key.split("/") as [string, string];
    const target = { kind: budgets, namespace, name: budgetName };
    const budget = (await getExisting(this.api, target)) as BudgetShape | undefined;
    if (budget === undefined) return undefined;
    try {
      await this.trySync(budget);
    } catch (error) {
      if (statusCode(error) === 409) throw error;
      await this.failSafe(budget, error instanceof Error ? error.message : String(error));
    }
    return undefined;
  }

  private async trySync(budget: BudgetShape): Promise<void> {
    const meta = metaOf(budget);
    const selector = selectorOf(budget);
    const all = (await this.api.list({ kind: pods, namespace: meta.namespace })).items.map(
      (item) => item.object as PodShape,
    );
    const selected = all.filter((pod) => selector.matches(metaOf(pod).labels ?? {}));
    const { expected, desired } = await this.expectedCount(budget, selected);
    const now = this.api.context.now();
    const { disrupted, recheckAt } = this.disruptedPods(budget, selected, now.getTime());
    const healthy = selected.filter((pod) => {
      if (isDeleting(pod)) return false;
      const disruptedAt = disrupted[metaOf(pod).name ?? ""];
      if (disruptedAt !== undefined && Date.parse(disruptedAt) + deletionTimeoutMs > now.getTime()) return false;
      return isReady(pod);
    }).length;
    await this.writeStatus(budget, healthy, desired, expected, disrupted);
    if (recheckAt !== undefined) this.after(recheckAt - now.getTime(), () => this.queue.add(keyOf(budget)));
  }

  /** kube's getExpectedPodCount: expectedPods and desiredHealthy. */
  private async expectedCount(
    budget: BudgetShape,
    selected: PodShape[],
  ): Promise<{ expected: number; desired: number }> {
    const spec = budget.spec ?? {};
    if (spec.maxUnavailable !== undefined && spec.maxUnavailable !== null) {
      const expected = await this.expectedScale(selected);
      const desired = expected - scaledValue(spec.maxUnavailable, expected);
      return { expected, desired: Math.max(desired, 0) };
    }
    if (spec.minAvailable !== undefined && spec.minAvailable !== null) {
      if (typeof spec.minAvailable === "number") return { expected: selected.length, desired: spec.minAvailable };
      const expected = await this.expectedScale(selected);
      return { expected, desired: scaledValue(spec.minAvailable, expected) };
    }
    return { expected: 0, desired: 0 };
  }

  /** kube's getExpectedScale: the replicas of the pods' controllers, each counted once; bare pods add none. */
  private async expectedScale(selected: PodShape[]): Promise<number> {
    const scales = new Map<string, number>();
    for (const pod of selected) {
      const ref = controllerOf(pod);
      if (ref === undefined || scales.has(ref.uid ?? "")) continue;
      const namespace = metaOf(pod).namespace ?? "";
      const finders = [
        () => this.replicationController(ref, namespace),
        () => this.deployment(ref, namespace),
        () => this.replicaSet(ref, namespace),
        () => this.statefulSet(ref, namespace),
        () => this.scaleController(ref, namespace),
      ];
      let found: Scale | undefined;
      for (const finder of finders) {
        found = await finder();
        if (found !== undefined) break;
      }
      if (found === undefined) throw new Error(`found no controllers for pod "${metaOf(pod).name}"`);
      scales.set(found.uid, found.replicas);
    }
    let total = 0;
    for (const replicas of scales.values()) total += replicas;
    return total;
  }

  /** The object `ref` names in `kind`, when it still is that object (same uid). */
  private async owner(kind: ServedKind, ref: OwnerReference, namespace: string): Promise<KubeObject | undefined> {
    const object = await getExisting(this.api, { kind, namespace, name: ref.name ?? "" });
    return object !== undefined && metaOf(object).uid === ref.uid ? object : undefined;
  }

  private static replicasOf(object: KubeObject): Scale {
    const replicas = (object.spec as { replicas?: number } | undefined)?.replicas;
    return { uid: metaOf(object).uid ?? "", replicas: replicas ?? 0 };
  }

  private async replicationController(ref: OwnerReference, namespace: string): Promise<Scale | undefined> {
    if (!refersTo(ref, "ReplicationController", [""])) return undefined;
    const rc = await this.owner(replicationControllers, ref, namespace);
    return rc === undefined ? undefined : DisruptionController.replicasOf(rc);
  }

  private async replicaSet(ref: OwnerReference, namespace: string): Promise<Scale | undefined> {
    if (!refersTo(ref, "ReplicaSet", ["apps", "extensions"])) return undefined;
    const rs = await this.owner(replicaSets, ref, namespace);
    if (rs === undefined || controllerOf(rs)?.kind === "Deployment") return undefined;
    return DisruptionController.replicasOf(rs);
  }

  private async deployment(ref: OwnerReference, namespace: string): Promise<Scale | undefined> {
    if (!refersTo(ref, "ReplicaSet", ["apps", "extensions"])) return undefined;
    const rs = await this.owner(replicaSets, ref, namespace);
    const rsRef = rs === undefined ? undefined : controllerOf(rs);
    if (rsRef === undefined || !refersTo(rsRef, "Deployment", ["apps", "extensions"])) return undefined;
    const deployment = await this.owner(deployments, rsRef, namespace);
    return deployment === undefined ? undefined : DisruptionController.replicasOf(deployment);
  }

  private async statefulSet(ref: OwnerReference, namespace: string): Promise<Scale | undefined> {
    if (!refersTo(ref, "StatefulSet", ["apps"])) return undefined;
    const ss = await this.owner(statefulSets, ref, namespace);
    return ss === undefined ? undefined : DisruptionController.replicasOf(ss);
  }

  /** Any other kind, through its scale subresource (custom resources among them). */
  private async scaleController(ref: OwnerReference, namespace: string): Promise<Scale | undefined> {
    const { group, version } = groupOf(ref.apiVersion ?? "");
    const kind = this.api.kinds.kindOf(group, version, ref.kind ?? "");
    if (kind === undefined) {
      const groupVersion = group === "" ? version : `${group}/${version}`;
      throw new Error(`no matches for kind "${ref.kind}" in version "${groupVersion}"`);
    }
    if (!kind.resource.subresources.some((s) => s.name === "scale" && s.scale !== undefined)) {
      const groupResource = group === "" ? kind.resource.plural : `${kind.resource.plural}.${group}`;
      throw new Error(`${groupResource} does not implement the scale subresource`);
    }
    let scale: KubeObject;
    try {
      scale = await this.api.getScale({ kind, namespace, name: ref.name ?? "" });
    } catch (error) {
      if (statusCode(error) === 404) return undefined;
      throw error;
    }
    if (metaOf(scale).uid !== ref.uid) return undefined;
    const replicas = (scale.spec as { replicas?: number } | undefined)?.replicas ?? 0;
    return { uid: ref.uid ?? "", replicas };
  }

  /**
   * kube's buildDisruptedPodMap: the evictions still awaited (pod selected, not deleting, within the
   * timeout) and when the earliest of them times out.
   */
  private disruptedPods(
    budget: BudgetShape,
    selected: PodShape[],
    now: number,
  ): { disrupted: Record<string, string>; recheckAt: number | undefined } {
    const recorded = budget.status?.disruptedPods ?? {};
    const disrupted: Record<string, string> = {};
    let recheckAt: number | undefined;
    for (const pod of selected) {
      const podName = metaOf(pod).name ?? "";
      const at = recorded[podName];
      if (isDeleting(pod) || at === undefined) continue;
      const expiry = Date.parse(at) + deletionTimeoutMs;
      if (expiry < now) continue;
      if (recheckAt === undefined || expiry < recheckAt) recheckAt = expiry;
      disrupted[podName] = at;
    }
    return { disrupted, recheckAt };
  }

  /** kube's updatePdbStatus: written only when something differs. */
  private async writeStatus(
    budget: BudgetShape,
    currentHealthy: number,
    desiredHealthy: number,
    expectedPods: number,
    disrupted: Record<string, string>,
  ): Promise<void> {
    let disruptionsAllowed = currentHealthy - desiredHealthy;
    if (expectedPods <= 0 || disruptionsAllowed <= 0) disruptionsAllowed = 0;
    const status = budget.status ?? {};
    const generation = metaOf(budget).generation ?? 0;
    if (
      status.currentHealthy === currentHealthy &&
      status.desiredHealthy === desiredHealthy &&
      status.expectedPods === expectedPods &&
      status.disruptionsAllowed === disruptionsAllowed &&
      sameDisrupted(status.disruptedPods, disrupted) &&
      (status.observedGeneration ?? 0) === generation &&
      conditionsUpToDate(budget)
    ) {
      return;
    }
    const next: BudgetStatus = {
      ...(generation ? { observedGeneration: generation } : {}),
      ...(Object.keys(disrupted).length > 0 ? { disruptedPods: disrupted } : {}),
      disruptionsAllowed,
      currentHealthy,
      desiredHealthy,
      expectedPods,
    };
    next.conditions = withDisruptionAllowedCondition(
      { ...next, conditions: status.conditions ?? [] },
      formatTime(this.api.context.now()),
    );
    await this.putStatus(budget, next);
  }

  /** kube's failSafe: no disruptions, and a SyncFailed condition saying why. */
  private async failSafe(budget: BudgetShape, message: string): Promise<void> {
    const status = budget.status ?? {};
    const conditions = setCondition(
      status.conditions ?? [],
      {
        type: "DisruptionAllowed",
        status: "False",
        observedGeneration: status.observedGeneration ?? 0,
        reason: "SyncFailed",
        message,
      },
      formatTime(this.api.context.now()),
    );
    // Shaped as kube's Go struct writes it: the counts always, the rest when set.
    await this.putStatus(budget, {
      ...(status.observedGeneration ? { observedGeneration: status.observedGeneration } : {}),
      ...(Object.keys(status.disruptedPods ?? {}).length > 0 ? { disruptedPods: status.disruptedPods ?? {} } : {}),
      disruptionsAllowed: 0,
      currentHealthy: status.currentHealthy ?? 0,
      desiredHealthy: status.desiredHealthy ?? 0,
      expectedPods: status.expectedPods ?? 0,
      conditions,
    });
  }

  /** An UpdateStatus of the budget as read: a conflict fails the sync, which the queue retries. */
  private async putStatus(budget: BudgetShape, status: BudgetStatus): Promise<void> {
    const meta = metaOf(budget);
    const target = { kind: budgets, namespace: meta.namespace, name: meta.name, subresource: "status" };
    await updateExisting(this.api, target, { ...structuredClone(budget), status } as KubeObject);
  }

  /** How long until the pod's DisruptionTarget condition is stale; undefined when it has none to clear. */
  private staleIn(pod: PodShape): number | undefined {
    if (isDeleting(pod)) return undefined;
    const condition = (pod.status?.conditions ?? []).find((c) => c.type === "DisruptionTarget");
    const phase = pod.status?.phase;
    if (
      condition === undefined ||
      condition.status !== "True" ||
      condition.reason === "TerminationByKubelet" ||
      phase === "Succeeded" ||
      phase === "Failed"
    ) {
      return undefined;
    }
    const since = this.api.context.now().getTime() - Date.parse(condition.lastTransitionTime ?? "");
    return Math.max(stalePodDisruptionTimeoutMs - (Number.isNaN(since) ? 0 : since), 0);
  }

  private scheduleStaleCheck(pod: PodShape): void {
    const wait = this.staleIn(pod);
    if (wait === undefined) return;
    const key = keyOf(pod);
    if (wait === 0) this.staleQueue.add(key);
    else this.after(wait, () => this.staleQueue.add(key));
  }

  /** kube's syncStalePodDisruption: the condition becomes False, its reason and message cleared. */
  private async clearStaleDisruption(key: string): Promise<undefined> {
    const [namespace, podName] = key.split("/") as [string, string];
    const target = { kind: pods, namespace, name: podName, subresource: "status" };
    await updateWithRetry(this.api, target, (obj) => {
      const pod = obj as PodShape;
      const wait = this.staleIn(pod);
      if (wait === undefined) return false;
      if (wait > 0) {
        this.after(wait, () => this.staleQueue.add(key));
        return false;
      }
      const generation = metaOf(pod).generation;
      const conditions = (pod.status?.conditions ?? []).map((c) =>
        c.type === "DisruptionTarget"
          ? {
              type: "DisruptionTarget",
              ...(generation ? { observedGeneration: generation } : {}),
              status: "False",
              lastProbeTime: null,
              lastTransitionTime: formatTime(this.api.context.now()),
            }
          : c,
      );
      pod.status = { ...pod.status, conditions };
      return true;
    });
    return undefined;
  }
}
