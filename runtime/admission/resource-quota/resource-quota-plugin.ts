// kube-apiserver's ResourceQuota admission (validating): a namespaced write whose evaluator says it may change
// usage is checked against the namespace's quotas (check-request.ts) and, once it fits, charged by writing
// the quotas' new `status.used` with optimistic concurrency; a conflict reads the quotas again and checks
// once more, three times at most, as kube's evaluator retries. Writes in one namespace are checked one at a
// time, so two of them never both take the last unit of a quota. Dry runs are checked but not charged.
// A failed status write other than a conflict is retried alike, as kube's is.

import type { KubeObject } from "../../object/kube-object.js";
import { quotaEvaluator } from "../../quota/evaluators.js";
import { listsEqual, readResourceList } from "../../quota/resource-list.js";
import { builtinKind } from "../../registry/kinds.js";
import type { ResourceApi } from "../../resources/resource-api.js";
import type { JsonObject } from "../../validation/walk.js";
import { type AdmissionAttributes, type AdmissionPlugin, isNamespaceRequest } from "../admission.js";
import { admissionForbidden } from "../admission-forbidden.js";
import type { AdmissionPluginContext } from "../plugin-context.js";
import { checkRequest, type QuotaCheck, QuotaRefusal } from "./check-request.js";
import { type LimitedResource, loadQuotaConfiguration } from "./quota-configuration.js";

const resourceQuotas = builtinKind("", "v1", "resourcequotas");

/** kube's evaluator retries a failed status write this many times after the first. */
const statusRetries = 3;

function usedOf(quota: KubeObject): unknown {
  return (quota.status as { used?: unknown } | undefined)?.used;
}

function nameOf(quota: KubeObject): string {
  return String((quota.metadata as { name?: string }).name ?? "");
}

/** Runs each namespace's checks one after another. */
class NamespaceLocks {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(namespace: string, work: () => Promise<T>): Promise<T> {
    const before = this.tails.get(namespace) ?? Promise.resolve();
    let release = () => {};
    const tail = new Promise<void>((resolve) => {
      release = resolve;
    });
    const chained = before.then(() => tail);
    this.tails.set(namespace, chained);
    await before;
    try {
      return await work();
    } finally {
      release();
      if (this.tails.get(namespace) === chained) this.tails.delete(namespace);
    }
  }
}

export function resourceQuota(context: AdmissionPluginContext): AdmissionPlugin {
  const api: ResourceApi = context.resources;
  const { limitedResources } = loadQuotaConfiguration(context.config);
  const locks = new NamespaceLocks();

  async function quotasIn(namespace: string): Promise<KubeObject[]> {
    const listed = await api.list({ kind: resourceQuotas, namespace });
    return listed.items.map((item) => item.object);
  }

  async function charge(
    a: AdmissionAttributes,
    check: QuotaCheck,
    limited: readonly LimitedResource[],
    namespace: string,
  ): Promise<void> {
    const evaluator = quotaEvaluator(check.group, check.resource);
    if (evaluator === undefined) return;
    let quotas = await quotasIn(namespace);
    for (let retries = statusRetries; ; retries--) {
      const updated = checkRequest(quotas, check, evaluator, limited);
      if (a.dryRun) return;
      const changed = updated.filter(
        (quota, i) => !listsEqual(readResourceList(usedOf(quota)), readResourceList(usedOf(quotas[i] as KubeObject))),
      );
      if (changed.length === 0) return;
      const failed: string[] = [];
      let lastError: unknown;
      for (const quota of changed) {
        try {
          await api.update({ kind: resourceQuotas, namespace, name: nameOf(quota), subresource: "status" }, quota);
        } catch (error) {
          failed.push(nameOf(quota));
          lastError = error;
        }
      }
      if (failed.length === 0) return;
      if (retries <= 0) throw lastError;
      quotas = (await quotasIn(namespace)).filter((quota) => failed.includes(nameOf(quota)));
    }
  }

  async function validate(a: AdmissionAttributes): Promise<void> {
    const namespace = a.namespace;
    if (namespace === undefined || namespace === "") return;
    if (a.operation === "CREATE" && isNamespaceRequest(a)) return;
    if (a.object === undefined) return;
    const evaluator = quotaEvaluator(a.kind.group, a.kind.resource.plural);
    const check: QuotaCheck = {
      group: a.kind.group,
      resource: a.kind.resource.plural,
      operation: a.operation,
      subresource: a.subresource ?? "",
      object: a.object as JsonObject,
      ...(a.oldObject === undefined ? {} : { oldObject: a.oldObject as JsonObject }),
      now: new Date(),
    };
    if (evaluator === undefined || !evaluator.handles(check)) return;
    try {
      await locks.run(namespace, () => charge(a, check, limitedResources, namespace));
    } catch (error) {
      if (error instanceof QuotaRefusal) throw admissionForbidden(a, error.message);
      throw error;
    }
  }

  return { name: "ResourceQuota", validate };
}
