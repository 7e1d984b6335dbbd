// kube-apiserver's NodeDeclaredFeatureValidator (NodeDeclaredFeatures, beta and on in v1.36): an update of a
// bound pod (itself or pods/resize) that moves its generation on may need node features; the node must list
// each in `status.declaredFeatures`, else 403 naming those missing. Of kube's v1.36 feature registry two are
// inferred from an update: InPlacePodLevelResourcesVerticalScaling (the pod-level `spec.resources` change) and
// InPlacePodVerticalScalingInitContainers (a non-sidecar init container's resources change).

import type { JsonObject } from "../../object/json-object.js";
import { isJsonObject } from "../../object/json-object.js";
import { builtinKind } from "../../registry/kinds.js";
import type { ResourceApi } from "../../resources/resource-api.js";
import { compareQuantity, readQuantity } from "../../validation/quantity-arithmetic.js";
import { objectField, objectItems } from "../../validation/walk.js";
import type { AdmissionPlugin } from "../admission.js";
import { admissionForbidden } from "../admission-forbidden.js";
import { readObject } from "./cached-read.js";
import { stringField } from "./pod-write.js";

export const nodeDeclaredFeatureValidatorPluginName = "NodeDeclaredFeatureValidator";

const nodes = builtinKind("", "v1", "nodes");

/** apimachinery's Semantic.DeepEqual: quantities by value, nil and empty maps and lists alike. */
function semanticEqual(a: unknown, b: unknown): boolean {
  const empty = (v: unknown) =>
    v === undefined ||
    v === null ||
    (Array.isArray(v) && v.length === 0) ||
    (isJsonObject(v) && Object.keys(v).length === 0);
  if (empty(a) && empty(b)) return true;
  if (typeof a === "string" && typeof b === "string") {
    const qa = readQuantity(a);
    const qb = readQuantity(b);
    if (qa !== undefined && qb !== undefined) return compareQuantity(qa, qb) === 0;
    return a === b;
  }
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => semanticEqual(v, b[i]));
  if (isJsonObject(a) && isJsonObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((k) => semanticEqual(a[k], b[k]));
  }
  return a === b;
}

/** A feature kube's framework infers from a pod update: its name and whether the update needs it. */
interface UpdateFeature {
  name: string;
  needed(oldSpec: JsonObject, newSpec: JsonObject): boolean;
}

// Sorted by name, as kube's framework orders its registry (and so the missing features it names).
const updateFeatures: readonly UpdateFeature[] = [
  {
    name: "InPlacePodLevelResourcesVerticalScaling",
    needed: (oldSpec, newSpec) => {
      if (oldSpec.resources === undefined && newSpec.resources === undefined) return false;
      return !semanticEqual(oldSpec.resources, newSpec.resources);
    },
  },
  {
    name: "InPlacePodVerticalScalingInitContainers",
    needed: (oldSpec, newSpec) => {
      const updated = objectItems(newSpec.initContainers);
      // kube compares these with reflect.DeepEqual: the resources as written, not by quantity value.
      return objectItems(oldSpec.initContainers).some(
        (c, i) =>
          c.restartPolicy !== "Always" &&
          JSON.stringify(c.resources ?? null) !== JSON.stringify(updated[i]?.resources ?? null),
      );
    },
  },
];

export function nodeDeclaredFeatureValidator(api: ResourceApi): AdmissionPlugin {
  return {
    name: nodeDeclaredFeatureValidatorPluginName,
    async validate(a) {
      if (a.operation !== "UPDATE" || a.kind.group !== "" || a.kind.resource.plural !== "pods") return;
      const subresource = a.subresource ?? "";
      if (subresource !== "" && subresource !== "resize") return;
      if (!isJsonObject(a.object)) return;
      const spec = objectField(a.object, "spec");
      const nodeName = stringField(spec, "nodeName");
      if (nodeName === "") return;
      const generation = (o: unknown) => objectField(o, "metadata").generation ?? 0;
      if (generation(a.oldObject) === generation(a.object)) return;
      const oldSpec = objectField(a.oldObject, "spec");
      const required = updateFeatures.filter((f) => f.needed(oldSpec, spec)).map((f) => f.name);
      if (required.length === 0) return;
      const node = await readObject(api, nodes, nodeName);
      if (node === undefined) throw admissionForbidden(a, `node "${nodeName}" not found`);
      const declared = objectField(node, "status").declaredFeatures;
      const available = new Set(Array.isArray(declared) ? declared : []);
      const missing = required.filter((name) => !available.has(name));
      if (missing.length === 0) return;
      throw admissionForbidden(
        a,
        `pod update requires features ${missing.join(", ")} which are not available on node "${nodeName}"`,
      );
    },
  };
}
