// kube's PodControl and slowStartBatch: pods made from a controller's template, created in batches that
// double (1, 2, 4, …) while they succeed, so a template every create refuses costs one call, not hundreds.
import type { KubeObject } from "../../object/kube-object.js";
import { builtinKind } from "../../registry/kinds.js";
import { controllerRefTo, type Owner } from "./controller-ref.js";
import { metaOf, type PodTemplate } from "./workload-objects.js";

export const pods = builtinKind("", "v1", "pods");

/** kube's SlowStartInitialBatchSize. */
const initialBatch = 1;

/** kube's GetPodFromTemplate: the template's labels, annotations, finalizers and spec under the owner. */
export function podFromTemplate(
  template: PodTemplate,
  owner: Owner,
  generateName: string,
  extra: { labels?: Record<string, string>; annotations?: Record<string, string>; finalizers?: string[] } = {},
): KubeObject {
  const templateMeta = template.metadata ?? {};
  const labels = { ...templateMeta.labels, ...extra.labels };
  const annotations = { ...templateMeta.annotations, ...extra.annotations };
  const finalizers = [...(templateMeta.finalizers ?? []), ...(extra.finalizers ?? [])];
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      generateName,
      namespace: metaOf(owner.object).namespace,
      ...(Object.keys(labels).length > 0 ? { labels } : {}),
      ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
      ...(finalizers.length > 0 ? { finalizers } : {}),
      ownerReferences: [controllerRefTo(owner)],
    },
    spec: structuredClone(template.spec ?? {}),
  } as KubeObject;
}

/**
 * Calls `create` `count` times in slow-start batches; stops at the first batch with a failure. Answers how
 * many succeeded and the first error.
 */
export async function slowStartBatch(
  count: number,
  create: () => Promise<void>,
): Promise<{ created: number; error: unknown }> {
  let remaining = count;
  let created = 0;
  for (let batch = Math.min(remaining, initialBatch); batch > 0; batch = Math.min(2 * batch, remaining)) {
    const results = await Promise.allSettled(Array.from({ length: batch }, () => create()));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
    created += results.filter((r) => r.status === "fulfilled").length;
    if (failed !== undefined) return { created, error: failed.reason };
    remaining -= batch;
  }
  return { created, error: undefined };
}

/** The message of an error a create returned, as Go's err.Error() shows it. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
