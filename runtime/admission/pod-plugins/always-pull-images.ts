// kube-apiserver's AlwaysPullImages admission (off by default): every container (init, regular, ephemeral)
// and every image volume of a pod written gets pull policy Always, and the validating step refuses a pod
// where a later plugin set another one. Updates that bring no new image are left alone.
import { aggregateMessage } from "../../errors/aggregate.js";
import { notSupported } from "../../errors/field-error.js";
import { formatFieldError } from "../../errors/format-field-error.js";
import { StatusError } from "../../errors/status-error.js";
import type { JsonObject } from "../../object/json-object.js";
import { isJsonObject } from "../../object/json-object.js";
import type { AdmissionAttributes, AdmissionPlugin } from "../admission.js";
import { admissionForbidden } from "../admission-forbidden.js";
import { podOf, stringField } from "./pod-write.js";

export const alwaysPullImagesPluginName = "AlwaysPullImages";

interface VisitedContainer {
  container: JsonObject;
  path: string;
}

/** pods.VisitContainersWithPath: init containers, containers, ephemeral containers, with their paths. */
function containers(spec: JsonObject): VisitedContainer[] {
  const visited: VisitedContainer[] = [];
  for (const field of ["initContainers", "containers", "ephemeralContainers"]) {
    const list = spec[field];
    if (!Array.isArray(list)) continue;
    list.forEach((container, i) => {
      if (isJsonObject(container)) visited.push({ container, path: `spec.${field}[${i}]` });
    });
  }
  return visited;
}

function imageVolumes(spec: JsonObject): { image: JsonObject; index: number }[] {
  if (!Array.isArray(spec.volumes)) return [];
  return spec.volumes.flatMap((volume, index) =>
    isJsonObject(volume) && isJsonObject(volume.image) ? [{ image: volume.image, index }] : [],
  );
}

function specOf(object: unknown): JsonObject {
  return isJsonObject(object) && isJsonObject(object.spec) ? object.spec : {};
}

/** An update whose every image was in the old pod already. */
function updateWithNoNewImages(a: AdmissionAttributes, pod: JsonObject): boolean {
  if (a.operation !== "UPDATE") return false;
  const old = new Set(containers(specOf(a.oldObject)).map(({ container }) => stringField(container, "image")));
  return containers(specOf(pod)).every(({ container }) => old.has(stringField(container, "image")));
}

export function alwaysPullImages(): AdmissionPlugin {
  function target(a: AdmissionAttributes): JsonObject | undefined {
    if (a.operation !== "CREATE" && a.operation !== "UPDATE") return undefined;
    const pod = podOf(a);
    if (pod === undefined || updateWithNoNewImages(a, pod)) return undefined;
    return specOf(pod);
  }

  return {
    name: alwaysPullImagesPluginName,
    mutate(a) {
      const spec = target(a);
      if (spec === undefined) return;
      for (const { container } of containers(spec)) container.imagePullPolicy = "Always";
      for (const { image } of imageVolumes(spec)) image.pullPolicy = "Always";
    },
    validate(a) {
      const spec = target(a);
      if (spec === undefined) return;
      const refusals: string[] = [];
      const refuse = (path: string, value: string) =>
        refusals.push(admissionForbidden(a, formatFieldError(notSupported(path, value, ["Always"]))).message);
      for (const { container, path } of containers(spec)) {
        const policy = stringField(container, "imagePullPolicy");
        if (policy !== "Always") refuse(`${path}.imagePullPolicy`, policy);
      }
      for (const { image, index } of imageVolumes(spec)) {
        const policy = stringField(image, "pullPolicy");
        if (policy !== "Always") refuse(`spec.volumes[${index}].image.pullPolicy`, policy);
      }
      // kube aggregates the refusals, which makes them a plain error: 500 without a reason.
      if (refusals.length > 0) throw new StatusError(500, undefined, aggregateMessage(refusals));
    },
  };
}
