// kube's PersistentVolumeClaimResize admission: a claim's storage request may grow only when the claim is
// bound and its StorageClass (the same before and after) allows volume expansion.
import type { KubeObject } from "../../object/kube-object.js";
import { builtinKind } from "../../registry/kinds.js";
import type { ResourceApi } from "../../resources/resource-api.js";
import { quantityValue } from "../../validation/quantity.js";
import type { AdmissionPlugin } from "../admission.js";
import { admissionForbidden } from "../admission-forbidden.js";
import { betaStorageClassAnnotation } from "./default-storage-class.js";
import { isMainResource } from "./resource-match.js";

interface ClaimShape {
  metadata?: { annotations?: Record<string, string> };
  spec?: { storageClassName?: string; resources?: { requests?: Record<string, string> } };
  status?: { phase?: string };
}

/** kube's GetPersistentVolumeClaimClass: the beta annotation first, then the field; "" for none. */
function claimClass(claim: ClaimShape): string {
  return claim.metadata?.annotations?.[betaStorageClassAnnotation] ?? claim.spec?.storageClassName ?? "";
}

/** The storage request; a missing one counts as zero, as a missing entry of Go's map reads. */
function requestedStorage(claim: ClaimShape): number {
  return quantityValue(claim.spec?.resources?.requests?.storage ?? "0") ?? 0;
}

export function persistentVolumeClaimResize(api: ResourceApi): AdmissionPlugin | undefined {
  if (!api.kinds.servesBuiltin("storage.k8s.io", "v1")) return undefined;
  const storageClasses = builtinKind("storage.k8s.io", "v1", "storageclasses");

  async function expansionAllowed(className: string): Promise<boolean> {
    let storageClass: KubeObject;
    try {
      storageClass = (await api.get({ kind: storageClasses, name: className }, { resourceVersion: "0" })).object;
    } catch {
      return false;
    }
    return storageClass.allowVolumeExpansion === true;
  }

  return {
    name: "PersistentVolumeClaimResize",
    async validate(a) {
      if (a.operation !== "UPDATE" || !isMainResource(a, "", "persistentvolumeclaims")) return;
      const claim = a.object as ClaimShape | undefined;
      const old = a.oldObject as ClaimShape | undefined;
      if (claim === undefined || old === undefined) return;
      if (requestedStorage(claim) <= requestedStorage(old)) return;
      if (old.status?.phase !== "Bound") {
        throw admissionForbidden(a, "Only bound persistent volume claims can be expanded");
      }
      const className = claimClass(claim);
      if (className === "" || className !== claimClass(old) || !(await expansionAllowed(className))) {
        throw admissionForbidden(
          a,
          "only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize",
        );
      }
    },
  };
}
