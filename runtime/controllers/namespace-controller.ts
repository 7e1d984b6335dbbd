// kube's namespace controller: a namespace with a deletionTimestamp is marked Terminating, everything
// stored in it is deleted (in the background), and once nothing is left it is finalized: `kubernetes`
// leaves spec.finalizers through the finalize subresource, after which the server removes the namespace
// when metadata.finalizers is empty too. While content remains (objects held by finalizers), the
// namespace's conditions say what and why, and the controller looks again with backoff.

import type { KubeObject } from "../object/kube-object.js";
import type { ResourceApi } from "../resources/resource-api.js";
import { formatTime } from "../resources/timestamps.js";
import { statusCode } from "./api-errors.js";
import type { ControllerContext } from "./controller-context.js";
import { namespaces } from "./core-kinds.js";
import { followObjects } from "./follow-objects.js";
import { applyConditions, type ContentReport } from "./namespace-conditions.js";
import { updateWithRetry } from "./update-with-retry.js";
import { retryLater, WorkQueue } from "./work-queue.js";

/** The finalizer this controller owns in a namespace's spec.finalizers. */
const kubernetesFinalizer = "kubernetes";

/** What a namespace can hold: namespaced resources, custom ones included, as they are served now. */
function namespacedContent(api: ResourceApi) {
  return api.kinds
    .storedResources()
    .filter(
      (kind) =>
        kind.resource.scope === "Namespaced" &&
        kind.resource.verbs.includes("list") &&
        kind.resource.verbs.includes("delete"),
    );
}

function specFinalizers(ns: KubeObject): string[] {
  const finalizers = (ns.spec as { finalizers?: unknown } | undefined)?.finalizers;
  return Array.isArray(finalizers) ? finalizers.map(String) : [];
}

function meta(obj: KubeObject): Record<string, unknown> {
  return (obj.metadata ?? {}) as Record<string, unknown>;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export class NamespaceController {
  private readonly queue: WorkQueue<string>;

  constructor(
    private readonly api: ResourceApi,
    private readonly options: ControllerContext,
  ) {
    this.queue = new WorkQueue((name) => this.sync(name), {
      name: "namespace controller",
      log: options.log,
      workers: 2,
      baseDelayMs: 20,
      maxDelayMs: 2000,
    });
  }

  async run(): Promise<void> {
    await followObjects(
      this.api,
      { kind: namespaces },
      (event) => {
        if (event.type !== "DELETED" && meta(event.object).deletionTimestamp !== undefined) {
          this.queue.add(String(meta(event.object).name));
        }
      },
      { ...this.options, name: "namespace controller" },
    );
    await this.queue.stop();
  }

  private async sync(name: string): Promise<typeof retryLater | undefined> {
    let ns: KubeObject | undefined;
    try {
      ns = (await this.api.get({ kind: namespaces, name })).object;
    } catch (error) {
      if (statusCode(error) === 404) return undefined;
      throw error;
    }
    if (meta(ns).deletionTimestamp === undefined) return undefined;
    const uid = String(meta(ns).uid);
    if ((ns.status as { phase?: string } | undefined)?.phase !== "Terminating") {
      const marked = await updateWithRetry(
        this.api,
        { kind: namespaces, name, subresource: "status" },
        (obj) => {
          obj.status = { ...(obj.status as object | undefined), phase: "Terminating" };
          return true;
        },
        uid,
      );
      if (marked !== undefined) ns = marked;
    }
    if (specFinalizers(ns).length === 0) return undefined;

    const report = await this.deleteContent(name);
    const now = formatTime(this.api.context.now());
    await updateWithRetry(
      this.api,
      { kind: namespaces, name, subresource: "status" },
      (obj) => {
        const status = { ...(obj.status as Record<string, unknown> | undefined) };
        obj.status = status;
        return applyConditions(status, report, now);
      },
      uid,
    );
    if (report.failures.length > 0)
      throw new Error(`deleting the content of namespace ${name}: ${report.failures.join(", ")}`);
    if (report.remaining.size > 0) return retryLater;

    await updateWithRetry(
      this.api,
      { kind: namespaces, name, subresource: "finalize" },
      (obj) => {
        const finalizers = specFinalizers(obj);
        if (!finalizers.includes(kubernetesFinalizer)) return false;
        obj.spec = {
          ...(obj.spec as object | undefined),
          finalizers: finalizers.filter((f) => f !== kubernetesFinalizer),
        };
        return true;
      },
      uid,
    );
    return undefined;
  }

  /** Deletes every object in the namespace, then counts what is still there and the finalizers holding it. */
  private async deleteContent(namespace: string): Promise<ContentReport> {
    const report: ContentReport = { remaining: new Map(), finalizers: new Map(), failures: [] };
    for (const kind of namespacedContent(this.api)) {
      const target = { kind, namespace };
      try {
        const { items } = await this.api.list(target);
        if (items.length === 0) continue;
        for (const { object } of items) {
          try {
            await this.api.delete({ ...target, name: String(meta(object).name) }, { propagationPolicy: "Background" });
          } catch (error) {
            if (statusCode(error) !== 404) report.failures.push(errorMessage(error));
          }
        }
        const left = (await this.api.list(target)).items;
        if (left.length === 0) continue;
        report.remaining.set(`${kind.resource.plural}.${kind.group}`, left.length);
        for (const { object } of left) {
          const finalizers = meta(object).finalizers;
          for (const finalizer of Array.isArray(finalizers) ? finalizers : []) {
            report.finalizers.set(String(finalizer), (report.finalizers.get(String(finalizer)) ?? 0) + 1);
          }
        }
      } catch (error) {
        report.failures.push(errorMessage(error));
      }
    }
    return report;
  }
}
