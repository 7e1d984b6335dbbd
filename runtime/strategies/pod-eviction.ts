// pods/eviction as kube's EvictionREST: a pod that is not running (Pending, Succeeded, Failed) or already
// deleting goes at once; otherwise the one PodDisruptionBudget selecting it must allow a disruption, which
// the eviction spends (disruptionsAllowed down, the pod in status.disruptedPods) before the delete. The pod
// gets the DisruptionTarget condition first. The answer is a Success Status.

import { type BudgetStatus, withDisruptionAllowedCondition } from "../controllers/disruption-controller.js";
import { invalid as invalidField } from "../errors/field-error.js";
import { badRequest, conflict, forbidden, invalid, StatusError } from "../errors/status-error.js";
import type { KubeObject } from "../object/kube-object.js";
import type { DeleteOptions } from "../resources/delete-object.js";
import { formatTime } from "../resources/timestamps.js";
import { type LabelSelectorObject, labelSelectorFromObject } from "../selection/label-selector-object.js";
import { asObject, type JsonObject, listItems } from "../validation/walk.js";
import type { HookRequest } from "./hook-request.js";
import { successStatus } from "./pod-binding.js";
import { podDisruptionBudgets, pods } from "./pod-related-kinds.js";

const maxDisruptedPods = 2000;
const budgetMessage = "Cannot evict pod as it would violate the pod's disruption budget.";

function budgetRefusal(cause: string, retryAfterSeconds: number): StatusError {
  return new StatusError(429, "TooManyRequests", budgetMessage, {
    causes: [{ reason: "DisruptionBudget", message: cause }],
    ...(retryAfterSeconds > 0 ? { retryAfterSeconds } : {}),
  });
}

function stillProcessing(pdbName: string): StatusError {
  return budgetRefusal(`The disruption budget ${pdbName} is still being processed by the server.`, 10);
}

function deleteOptionsOf(eviction: KubeObject, request: HookRequest): DeleteOptions {
  const given = asObject(eviction.deleteOptions) ?? {};
  const options: DeleteOptions = {};
  if (typeof given.gracePeriodSeconds === "number") options.gracePeriodSeconds = given.gracePeriodSeconds;
  const preconditions = asObject(given.preconditions);
  if (preconditions !== undefined) {
    options.preconditions = {
      ...(typeof preconditions.uid === "string" ? { uid: preconditions.uid } : {}),
      ...(typeof preconditions.resourceVersion === "string" ? { resourceVersion: preconditions.resourceVersion } : {}),
    };
  }
  if (typeof given.propagationPolicy === "string") options.propagationPolicy = given.propagationPolicy;
  if (typeof given.orphanDependents === "boolean") options.orphanDependents = given.orphanDependents;
  // kube's propagateDryRun: the request's list (only ever [All] here) and the body's must agree when both
  // are given; any non-empty list means a dry run.
  const bodyDryRun = listItems(given.dryRun).map(String);
  if (request.dryRun && bodyDryRun.length > 0 && (bodyDryRun.length !== 1 || bodyDryRun[0] !== "All")) {
    throw new StatusError(
      500,
      undefined,
      `Non-matching dry-run options in request and content: [All] and [${bodyDryRun.join(" ")}]`,
    );
  }
  options.dryRun = request.dryRun || bodyDryRun.length > 0;
  return options;
}

function phaseOf(pod: KubeObject): unknown {
  return asObject(pod.status)?.phase;
}

function isDeleting(pod: KubeObject): boolean {
  const deletion = asObject(pod.metadata)?.deletionTimestamp;
  return deletion !== undefined && deletion !== null;
}

function isReady(pod: KubeObject): boolean {
  return listItems(asObject(pod.status)?.conditions).some(
    (c) => asObject(c)?.type === "Ready" && asObject(c)?.status === "True",
  );
}

/** The pod's DisruptionTarget condition, then its delete (kube's addConditionAndDeletePod). */
async function markAndDelete(request: HookRequest, pod: KubeObject, options: DeleteOptions): Promise<void> {
  const target = { kind: pods, namespace: request.namespace, name: String(asObject(pod.metadata)?.name) };
  if (options.dryRun !== true) {
    const meta = asObject(pod.metadata) ?? {};
    const wanted = options.preconditions;
    if (wanted?.uid !== undefined && wanted.uid !== "" && wanted.uid !== meta.uid) {
      const cause = `the UID in the precondition (${wanted.uid}) does not match the UID in record (${String(meta.uid)}). The object might have been deleted and then recreated`;
      throw conflict({ group: "", name: "Pod" }, target.name, cause);
    }
    if (
      wanted?.resourceVersion !== undefined &&
      wanted.resourceVersion !== "" &&
      wanted.resourceVersion !== meta.resourceVersion
    ) {
      const cause = `the ResourceVersion in the precondition (${wanted.resourceVersion}) does not match the ResourceVersion in record (${String(meta.resourceVersion)}). The object might have been modified`;
      throw conflict({ group: "", name: "Pod" }, target.name, cause);
    }
    const marked = structuredClone(pod);
    const status = asObject(marked.status) ?? {};
    const conditions = listItems(status.conditions).filter((c) => asObject(c)?.type !== "DisruptionTarget");
    conditions.push({
      type: "DisruptionTarget",
      status: "True",
      lastProbeTime: null,
      lastTransitionTime: formatTime(new Date()),
      reason: "EvictionByEvictionAPI",
      message: "Eviction API: evicting",
    });
    marked.status = { ...status, conditions };
    const { object } = await request.resources.update({ ...target, subresource: "status" }, marked);
    if (wanted?.resourceVersion !== undefined) {
      options = {
        ...options,
        preconditions: { ...wanted, resourceVersion: String(asObject(object.metadata)?.resourceVersion) },
      };
    }
  }
  await request.resources.delete(target, options);
}

async function budgetsOf(request: HookRequest, pod: KubeObject): Promise<KubeObject[]> {
  const labels = (asObject(asObject(pod.metadata)?.labels) ?? {}) as Record<string, string>;
  const { items } = await request.resources.list({ kind: podDisruptionBudgets, namespace: request.namespace });
  return items
    .map((item) => item.object)
    .filter((pdb) => {
      // A null selector selects nothing, an empty one every pod (policy/v1).
      const parsed = labelSelectorFromObject(asObject(asObject(pdb.spec)?.selector) as LabelSelectorObject | undefined);
      return parsed.ok && parsed.selector.matches(labels);
    });
}

/** kube's checkAndDecrement: spends one allowed disruption, or refuses with the budget's reason. */
async function spendDisruption(request: HookRequest, podName: string, pdb: KubeObject, dryRun: boolean): Promise<void> {
  const meta = asObject(pdb.metadata) ?? {};
  const name = String(meta.name);
  const status = asObject(pdb.status) ?? {};
  const allowed = Number(status.disruptionsAllowed ?? 0);
  if (Number(status.observedGeneration ?? 0) < Number(meta.generation ?? 0)) throw stillProcessing(name);
  const pdbResource = { group: "policy", name: "poddisruptionbudget" };
  if (allowed < 0) throw forbidden(pdbResource, name, "pdb disruptions allowed is negative");
  const disrupted = asObject(status.disruptedPods) ?? {};
  if (Object.keys(disrupted).length > maxDisruptedPods) {
    throw forbidden(
      pdbResource,
      name,
      "DisruptedPods map too big - too many evictions not confirmed by PDB controller",
    );
  }
  const conditions = listItems(status.conditions).map((c) => asObject(c) ?? {});
  if (allowed === 0) {
    const condition = conditions.find((c) => c.type === "DisruptionAllowed");
    const current = Number(status.currentHealthy ?? 0);
    const desired = Number(status.desiredHealthy ?? 0);
    const failedWith =
      condition?.status === "False" && typeof condition.message === "string" && condition.message !== "";
    let cause: string;
    if (failedWith && condition?.reason === "SyncFailed") {
      cause = `The disruption budget ${name} does not allow evicting pods currently because it failed sync: ${String(condition.message)}`;
    } else if (current <= desired) {
      cause = `The disruption budget ${name} needs ${desired} healthy pods and has ${current} currently`;
    } else if (failedWith) {
      cause = `The disruption budget ${name} does not allow evicting pods currently (${String(condition?.reason)}): ${String(condition?.message)}`;
    } else cause = `The disruption budget ${name} does not allow evicting pods currently`;
    throw budgetRefusal(cause, 0);
  }
  if (dryRun) return;
  const now = formatTime(new Date());
  const updated: JsonObject = {
    ...status,
    disruptionsAllowed: allowed - 1,
    disruptedPods: { ...disrupted, [podName]: now },
  };
  if (allowed - 1 === 0) {
    updated.conditions = withDisruptionAllowedCondition(updated as BudgetStatus, now) as unknown as JsonObject[];
  }
  await request.resources.update(
    { kind: podDisruptionBudgets, namespace: request.namespace, name, subresource: "status" },
    { ...pdb, status: updated },
  );
}

/** kube's EvictionsRetry: a budget written meanwhile (by the disruption controller) is read again. */
const budgetAttempts = 20;
const budgetRetryDelayMs = 500;

async function spendDisruptionRetrying(
  request: HookRequest,
  podName: string,
  pdb: KubeObject,
  dryRun: boolean,
): Promise<void> {
  const name = String(asObject(pdb.metadata)?.name);
  for (let attempt = 1; ; attempt++) {
    try {
      return await spendDisruption(request, podName, pdb, dryRun);
    } catch (error) {
      if (!(error instanceof StatusError) || error.code !== 409 || attempt === budgetAttempts) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, budgetRetryDelayMs * (1 + Math.random() * 0.1)));
    pdb = (await request.resources.get({ kind: podDisruptionBudgets, namespace: request.namespace, name })).object;
  }
}

export async function evictPod(eviction: KubeObject, request: HookRequest): Promise<KubeObject> {
  const name = String(asObject(eviction.metadata)?.name ?? "");
  if (request.name !== name) throw badRequest("name in URL does not match name in Eviction object");
  const given = asObject(eviction.deleteOptions);
  if (given?.ignoreStoreReadErrorWithClusterBreakingPotential === true) {
    throw invalid({ group: "policy", name: "Eviction" }, name, [
      invalidField(
        "deleteOptions.ignoreStoreReadErrorWithClusterBreakingPotential",
        true,
        "can not be set for pod eviction, try after removing the option",
      ),
    ]);
  }
  const options = deleteOptionsOf(eviction, request);
  const rvUnset = options.preconditions?.resourceVersion === undefined;
  for (;;) {
    const pod = (await request.resources.get({ kind: pods, namespace: request.namespace, name })).object;
    const phase = phaseOf(pod);
    if (phase === "Succeeded" || phase === "Failed" || phase === "Pending" || isDeleting(pod)) {
      let deleteOptions = options;
      const enforce = phase !== "Succeeded" && phase !== "Failed" && !isDeleting(pod);
      if (enforce && rvUnset) {
        const resourceVersion = String(asObject(pod.metadata)?.resourceVersion);
        deleteOptions = { ...options, preconditions: { ...options.preconditions, resourceVersion } };
      }
      try {
        await markAndDelete(request, pod, deleteOptions);
        return successStatus;
      } catch (error) {
        if (rvUnset && error instanceof StatusError && error.code === 409) continue;
        throw error;
      }
    }
    const budgets = await budgetsOf(request, pod);
    if (budgets.length > 1) {
      // kube returns this Status as its answer, and the code it carries is the HTTP code sent.
      throw new StatusError(
        500,
        undefined,
        "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.",
      );
    }
    let deleteOptions = options;
    let unhealthyAllowed = false;
    const pdb = budgets[0];
    if (pdb !== undefined) {
      const spec = asObject(pdb.spec) ?? {};
      const status = asObject(pdb.status) ?? {};
      const desired = Number(status.desiredHealthy ?? 0);
      if (
        !isReady(pod) &&
        (spec.unhealthyPodEvictionPolicy === "AlwaysAllow" ||
          (Number(status.currentHealthy ?? 0) >= desired && desired > 0))
      ) {
        unhealthyAllowed = true;
        const resourceVersion = String(asObject(pod.metadata)?.resourceVersion);
        deleteOptions = { ...options, preconditions: { ...options.preconditions, resourceVersion } };
      } else await spendDisruptionRetrying(request, name, pdb, options.dryRun === true);
    }
    try {
      await markAndDelete(request, pod, deleteOptions);
      return successStatus;
    } catch (error) {
      if (unhealthyAllowed && rvUnset && error instanceof StatusError && error.code === 409) {
        throw stillProcessing(String(asObject(pdb?.metadata)?.name));
      }
      throw error;
    }
  }
}
