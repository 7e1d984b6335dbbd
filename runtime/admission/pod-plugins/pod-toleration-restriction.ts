// kube-apiserver's PodTolerationRestriction admission (off by default): a created pod's tolerations are
// merged with its namespace's defaults (the `scheduler.alpha.kubernetes.io/defaultTolerations` annotation,
// else the configuration's `default`); a pod that is not BestEffort also tolerates memory pressure; and the
// pod's tolerations must stay within its namespace's whitelist (`…/tolerationsWhitelist`, else the
// configuration's `whitelist`). kube answers a refusal as a plain error: 500 without a reason.

import { parseJson } from "../../codecs/json-body.js";
import { namespaces } from "../../controllers/core-kinds.js";
import { notFound, StatusError } from "../../errors/status-error.js";
import type { JsonObject } from "../../object/json-object.js";
import { isJsonObject } from "../../object/json-object.js";
import { groupResource } from "../../registry/kinds.js";
import type { ResourceApi } from "../../resources/resource-api.js";
import { podQOSClass } from "../../strategies/pod-qos.js";
import type { AdmissionAttributes, AdmissionPlugin } from "../admission.js";
import type { AdmissionPluginContext } from "../plugin-context.js";
import { readObject } from "./cached-read.js";
import { loadPodTolerationRestrictionConfig } from "./pod-toleration-restriction-config.js";
import { podOf, specOf } from "./pod-write.js";
import { decodeTolerations } from "./toleration-json.js";
import { mergeTolerations, tolerationsOf, verifyAgainstWhitelist } from "./tolerations.js";

export const podTolerationRestrictionPluginName = "PodTolerationRestriction";

export const defaultTolerationsAnnotation = "scheduler.alpha.kubernetes.io/defaultTolerations";
export const tolerationsWhitelistAnnotation = "scheduler.alpha.kubernetes.io/tolerationsWhitelist";

function plainError(message: string): StatusError {
  return new StatusError(500, undefined, message);
}

/** The annotation's tolerations; undefined when the namespace does not have it (an empty value: none). */
function annotationTolerations(namespace: JsonObject, key: string): JsonObject[] | undefined {
  const meta = isJsonObject(namespace.metadata) ? namespace.metadata : {};
  const annotations = isJsonObject(meta.annotations) ? meta.annotations : {};
  const text = annotations[key];
  if (typeof text !== "string") return undefined;
  if (text === "") return [];
  const parsed = parseJson(Buffer.from(text, "utf8"));
  if ("error" in parsed) throw plainError(parsed.error);
  try {
    return decodeTolerations(parsed.value, { caseInsensitive: true });
  } catch (error) {
    throw plainError((error as Error).message);
  }
}

function qosClass(pod: JsonObject): string {
  const status = isJsonObject(pod.status) ? pod.status : {};
  if (typeof status.qosClass === "string" && status.qosClass !== "") return status.qosClass;
  return podQOSClass(specOf(pod));
}

export function podTolerationRestriction(
  context: Pick<AdmissionPluginContext, "resources" | "config">,
): AdmissionPlugin {
  const api: ResourceApi = context.resources;
  const config = loadPodTolerationRestrictionConfig(context.config?.text);

  async function namespaceOf(name: string): Promise<JsonObject> {
    const namespace = await readObject(api, namespaces, name);
    if (namespace === undefined) throw notFound(groupResource(namespaces), name);
    return namespace;
  }

  async function validate(a: AdmissionAttributes, pod: JsonObject): Promise<void> {
    const tolerations = tolerationsOf(specOf(pod));
    if (tolerations.length === 0) return;
    const namespace = await namespaceOf(a.namespace ?? "");
    let whitelist = annotationTolerations(namespace, tolerationsWhitelistAnnotation);
    let scope = "namespace";
    if (whitelist === undefined) {
      whitelist = config.whitelist;
      scope = "cluster";
    }
    if (whitelist.length > 0 && !verifyAgainstWhitelist(tolerations, whitelist)) {
      throw plainError(
        `pod tolerations (possibly merged with namespace default tolerations) conflict with its ${scope} whitelist`,
      );
    }
  }

  function applies(a: AdmissionAttributes): JsonObject | undefined {
    return a.operation === "CREATE" || a.operation === "UPDATE" ? podOf(a) : undefined;
  }

  return {
    name: podTolerationRestrictionPluginName,
    async mutate(a) {
      const pod = applies(a);
      if (pod === undefined) return;
      const extra: JsonObject[] = [];
      if (a.operation === "CREATE") {
        const defaults = annotationTolerations(await namespaceOf(a.namespace ?? ""), defaultTolerationsAnnotation);
        extra.push(...(defaults ?? config.default));
      }
      if (qosClass(pod) !== "BestEffort") {
        extra.push({ key: "node.kubernetes.io/memory-pressure", operator: "Exists", effect: "NoSchedule" });
      }
      if (extra.length > 0) {
        const spec = specOf(pod);
        const merged = mergeTolerations(
          tolerationsOf(spec),
          extra.map((t) => ({ ...t })),
        );
        if (merged.length === 0) delete spec.tolerations;
        else spec.tolerations = merged;
      }
      await validate(a, pod);
    },
    async validate(a) {
      const pod = applies(a);
      if (pod !== undefined) await validate(a, pod);
    },
  };
}
