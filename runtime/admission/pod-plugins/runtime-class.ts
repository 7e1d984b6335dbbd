// kube-apiserver's RuntimeClass admission: a pod created with `runtimeClassName` must name an existing
// RuntimeClass (node.k8s.io/v1); the class's `overhead.podFixed` becomes the pod's `spec.overhead`, its
// `scheduling.nodeSelector` is merged into the pod's node selector and its `scheduling.tolerations` into the
// pod's tolerations. The validating step checks the overhead again after every mutating plugin ran.
import type { JsonObject } from "../../object/json-object.js";
import { isJsonObject } from "../../object/json-object.js";
import { builtinKind } from "../../registry/kinds.js";
import type { ResourceApi } from "../../resources/resource-api.js";
import { quantityValue } from "../../validation/quantity.js";
import type { AdmissionAttributes, AdmissionPlugin } from "../admission.js";
import { admissionForbidden } from "../admission-forbidden.js";
import { readObject } from "./cached-read.js";
import { podOf, specOf } from "./pod-write.js";
import { mergeTolerations, tolerationsOf } from "./tolerations.js";

export const runtimeClassPluginName = "RuntimeClass";

const runtimeClasses = builtinKind("node.k8s.io", "v1", "runtimeclasses");

/** A Go map field: nil when absent or null, else the map (an empty one included). */
function mapField(object: JsonObject, key: string): JsonObject | undefined {
  const value = object[key];
  return isJsonObject(value) ? value : undefined;
}

/** Semantic equality of two resource lists: the same names with equal quantities; nil equals empty. */
function sameResources(a: JsonObject | undefined, b: JsonObject | undefined): boolean {
  const left = Object.entries(a ?? {});
  if (left.length !== Object.keys(b ?? {}).length) return false;
  return left.every(([name, q]) => {
    const other = b?.[name];
    if (other === undefined) return false;
    const x = quantityValue(q);
    return x !== undefined && x === quantityValue(other);
  });
}

/** The class's podFixed overhead; undefined when the class has no `overhead`, null when it has no podFixed. */
function classOverhead(rc: JsonObject): JsonObject | null | undefined {
  const overhead = mapField(rc, "overhead");
  if (overhead === undefined) return undefined;
  return mapField(overhead, "podFixed") ?? null;
}

export function runtimeClass(api: ResourceApi): AdmissionPlugin {
  async function lookUp(a: AdmissionAttributes, spec: JsonObject): Promise<JsonObject | undefined> {
    const name = spec.runtimeClassName;
    if (typeof name !== "string") return undefined;
    const rc = await readObject(api, runtimeClasses, name);
    if (rc === undefined) throw admissionForbidden(a, `pod rejected: RuntimeClass "${name}" not found`);
    return rc;
  }

  function setOverhead(a: AdmissionAttributes, spec: JsonObject, rc: JsonObject): void {
    const fixed = classOverhead(rc);
    if (fixed === undefined) return;
    const podOverhead = mapField(spec, "overhead");
    if (Object.keys(podOverhead ?? {}).length > 0 && !sameResources(fixed ?? undefined, podOverhead)) {
      throw admissionForbidden(a, "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead");
    }
    if (fixed === null) delete spec.overhead;
    else spec.overhead = { ...fixed };
  }

  function setScheduling(a: AdmissionAttributes, spec: JsonObject, rc: JsonObject): void {
    const scheduling = mapField(rc, "scheduling");
    if (scheduling === undefined) return;
    const classSelector = mapField(scheduling, "nodeSelector");
    const podSelector = mapField(spec, "nodeSelector");
    if (podSelector === undefined) {
      if (classSelector === undefined) delete spec.nodeSelector;
      else spec.nodeSelector = { ...classSelector };
    } else {
      for (const [key, classValue] of Object.entries(classSelector ?? {})) {
        const podValue = podSelector[key];
        if (podValue !== undefined && podValue !== classValue) {
          throw admissionForbidden(
            a,
            `conflict: runtimeClass.scheduling.nodeSelector[${key}] = ${String(classValue)}; pod.spec.nodeSelector[${key}] = ${String(podValue)}`,
          );
        }
        podSelector[key] = classValue;
      }
    }
    const classTolerations = Array.isArray(scheduling.tolerations) ? scheduling.tolerations.filter(isJsonObject) : [];
    const merged = mergeTolerations(tolerationsOf(spec), classTolerations);
    if (merged.length === 0) delete spec.tolerations;
    else spec.tolerations = merged.map((t) => ({ ...t }));
  }

  function validateOverhead(a: AdmissionAttributes, spec: JsonObject, rc: JsonObject | undefined): void {
    const fixed = rc === undefined ? undefined : classOverhead(rc);
    if (fixed !== undefined) {
      if (!sameResources(fixed ?? undefined, mapField(spec, "overhead"))) {
        throw admissionForbidden(a, "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead");
      }
    } else if (mapField(spec, "overhead") !== undefined) {
      throw admissionForbidden(a, "pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead");
    }
  }

  return {
    name: runtimeClassPluginName,
    async mutate(a) {
      if (a.operation !== "CREATE") return;
      const pod = podOf(a);
      if (pod === undefined) return;
      const spec = specOf(pod);
      const rc = await lookUp(a, spec);
      if (rc === undefined) return;
      setOverhead(a, spec, rc);
      setScheduling(a, spec, rc);
    },
    async validate(a) {
      if (a.operation !== "CREATE") return;
      const pod = podOf(a);
      if (pod === undefined) return;
      const spec = specOf(pod);
      validateOverhead(a, spec, await lookUp(a, spec));
    },
  };
}
