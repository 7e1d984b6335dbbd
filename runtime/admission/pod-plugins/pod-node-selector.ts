// kube-apiserver's PodNodeSelector admission (off by default): a created pod's node selector is merged with
// its namespace's (the `scheduler.alpha.kubernetes.io/node-selector` annotation, else the configuration's
// `clusterDefaultNodeSelector`), refused when they conflict or when it leaves the namespace's whitelist
// (the configuration's entry named after the namespace).
import { namespaces } from "../../controllers/core-kinds.js";
import { forbidden, internal, StatusError } from "../../errors/status-error.js";
import type { JsonObject } from "../../object/json-object.js";
import { isJsonObject } from "../../object/json-object.js";
import { groupResource } from "../../registry/kinds.js";
import type { ResourceApi } from "../../resources/resource-api.js";
import type { AdmissionAttributes, AdmissionPlugin } from "../admission.js";
import { parsePluginConfigDocuments } from "../plugin-config-document.js";
import type { AdmissionPluginContext } from "../plugin-context.js";
import { readObject } from "./cached-read.js";
import { type LabelSet, labelsConflict, mergeLabels, selectorToLabels } from "./label-set.js";
import { podOf, specOf } from "./pod-write.js";

export const podNodeSelectorPluginName = "PodNodeSelector";

export const namespaceNodeSelectorAnnotation = "scheduler.alpha.kubernetes.io/node-selector";

/** The configuration's key for the selector of namespaces without the annotation. */
const clusterDefaultKey = "clusterDefaultNodeSelector";

/**
 * The `podNodeSelectorPluginConfig` map. kube decodes every YAML or JSON document of the file into the same
 * struct, matching the field name regardless of case, and skips documents it cannot decode.
 */
export function readPodNodeSelectorConfig(text: string | undefined): Record<string, string> {
  const selectors: Record<string, string> = {};
  for (const document of parsePluginConfigDocuments(text)) {
    if (!isJsonObject(document)) continue;
    const entry = Object.entries(document).find(([key]) => key.toLowerCase() === "podnodeselectorpluginconfig");
    const map = entry?.[1];
    if (map === null) continue;
    if (!isJsonObject(map) || !Object.values(map).every((v) => typeof v === "string" || v === null)) continue;
    for (const [key, value] of Object.entries(map)) selectors[key] = typeof value === "string" ? value : "";
  }
  return selectors;
}

/** A plain error of kube's plugin, answered as a 500 without a reason. */
function plainError(error: unknown): StatusError {
  return error instanceof StatusError ? error : new StatusError(500, undefined, (error as Error).message);
}

function selectorOf(value: string): LabelSet {
  try {
    return selectorToLabels(value);
  } catch (error) {
    throw plainError(error);
  }
}

function nodeSelectorOf(spec: JsonObject): LabelSet {
  const selector = spec.nodeSelector;
  if (!isJsonObject(selector)) return {};
  return Object.fromEntries(Object.entries(selector).map(([k, v]) => [k, typeof v === "string" ? v : ""]));
}

/** isSubset: an empty whitelist allows everything; else every pod label must be in it with its value. */
function withinWhitelist(labels: LabelSet, whitelist: LabelSet): boolean {
  if (Object.keys(whitelist).length === 0) return true;
  return Object.entries(labels).every(([key, value]) => Object.hasOwn(whitelist, key) && whitelist[key] === value);
}

export function podNodeSelector(context: Pick<AdmissionPluginContext, "resources" | "config">): AdmissionPlugin {
  const api: ResourceApi = context.resources;
  const clusterSelectors = readPodNodeSelectorConfig(context.config?.text);

  async function namespaceSelector(name: string): Promise<LabelSet> {
    const namespace = await readObject(api, namespaces, name);
    if (namespace === undefined) throw internal(`namespace ${name} does not exist`);
    const meta = isJsonObject(namespace.metadata) ? namespace.metadata : {};
    const annotations = isJsonObject(meta.annotations) ? meta.annotations : {};
    const annotation = annotations[namespaceNodeSelectorAnnotation];
    if (typeof annotation === "string") return selectorOf(annotation);
    return selectorOf(clusterSelectors[clusterDefaultKey] ?? "");
  }

  function refuse(a: AdmissionAttributes, pod: JsonObject, why: string): StatusError {
    const meta = isJsonObject(pod.metadata) ? pod.metadata : {};
    return forbidden(groupResource(a.kind), typeof meta.name === "string" ? meta.name : "", why);
  }

  async function check(a: AdmissionAttributes, pod: JsonObject, namespace: LabelSet): Promise<void> {
    const selector = nodeSelectorOf(specOf(pod));
    if (labelsConflict(namespace, selector)) {
      throw refuse(a, pod, "pod node label selector conflicts with its namespace node label selector");
    }
    const whitelist = selectorOf(clusterSelectors[a.namespace ?? ""] ?? "");
    if (!withinWhitelist(selector, whitelist)) {
      throw refuse(a, pod, "pod node label selector labels conflict with its namespace whitelist");
    }
  }

  return {
    name: podNodeSelectorPluginName,
    async mutate(a) {
      if (a.operation !== "CREATE") return;
      const pod = podOf(a);
      if (pod === undefined) return;
      const namespace = await namespaceSelector(a.namespace ?? "");
      const spec = specOf(pod);
      if (labelsConflict(namespace, nodeSelectorOf(spec))) {
        throw refuse(a, pod, "pod node label selector conflicts with its namespace node label selector");
      }
      const merged = mergeLabels(namespace, nodeSelectorOf(spec));
      if (Object.keys(merged).length === 0) delete spec.nodeSelector;
      else spec.nodeSelector = merged;
      await check(a, pod, namespace);
    },
    async validate(a) {
      if (a.operation !== "CREATE") return;
      const pod = podOf(a);
      if (pod === undefined) return;
      await check(a, pod, await namespaceSelector(a.namespace ?? ""));
    },
  };
}
