// kube's DefaultStorageClass admission: a PersistentVolumeClaim created without a class (neither
// `spec.storageClassName` nor the beta annotation, where even "" counts as a class) gets the default
// StorageClass. Claims left without one are not revisited here; kube's PV controller does that.
import type { KubeObject } from "../../object/kube-object.js";
import { builtinKind } from "../../registry/kinds.js";
import type { ResourceApi } from "../../resources/resource-api.js";
import type { AdmissionPlugin } from "../admission.js";
import { admissionForbidden } from "../admission-forbidden.js";
import { defaultClassName } from "./default-class.js";
import { isMainResource } from "./resource-match.js";

/** The annotation kube reads before `spec.storageClassName`. */
export const betaStorageClassAnnotation = "volume.beta.kubernetes.io/storage-class";

const defaultClassAnnotations = [
  "storageclass.kubernetes.io/is-default-class",
  "storageclass.beta.kubernetes.io/is-default-class",
];

function hasClass(claim: KubeObject): boolean {
  const annotations = (claim.metadata as { annotations?: Record<string, string> } | undefined)?.annotations;
  if (annotations !== undefined && betaStorageClassAnnotation in annotations) return true;
  return (claim.spec as { storageClassName?: string } | undefined)?.storageClassName !== undefined;
}

export function defaultStorageClass(api: ResourceApi): AdmissionPlugin | undefined {
  if (!api.kinds.servesBuiltin("storage.k8s.io", "v1")) return undefined;
  const storageClasses = builtinKind("storage.k8s.io", "v1", "storageclasses");
  return {
    name: "DefaultStorageClass",
    async mutate(a) {
      if (
        a.operation !== "CREATE" ||
        !isMainResource(a, "", "persistentvolumeclaims") ||
        a.object === undefined ||
        hasClass(a.object)
      )
        return;
      let name: string | undefined;
      try {
        name = await defaultClassName(api, storageClasses, defaultClassAnnotations);
      } catch (error) {
        throw admissionForbidden(a, (error as Error).message);
      }
      if (name === undefined) return;
      a.object.spec = { ...(a.object.spec as Record<string, unknown> | undefined), storageClassName: name };
    },
  };
}
