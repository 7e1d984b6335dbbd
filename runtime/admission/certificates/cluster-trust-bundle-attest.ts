// kube's ClusterTrustBundleAttest admission: writing a ClusterTrustBundle that names a signer needs `attest`
// on that signer (or its domain's wildcard), unless the write changes only owner references and finalizers.
// It acts only where the server serves ClusterTrustBundles (certificates.k8s.io v1alpha1/v1beta1, off by
// default, as kube's ClusterTrustBundle feature is).
import { isDeepStrictEqual } from "node:util";
import type { KubeObject } from "../../object/kube-object.js";
import type { AdmissionAttributes, AdmissionPlugin } from "../admission.js";
import { admissionForbidden } from "../admission-forbidden.js";
import type { AdmissionPluginContext } from "../plugin-context.js";
import { signerNameOf } from "./certificate-attributes.js";
import { authorizedForSigner } from "./signer-authorization.js";

/** rbac.IsOnlyMutatingGCFields: the objects are equal once the old one takes the new owner references and finalizers. */
function onlyGarbageCollectionFields(obj: KubeObject | undefined, old: KubeObject | undefined): boolean {
  if (obj === undefined || old === undefined) return false;
  const copy = structuredClone(old);
  const meta = (copy.metadata ?? {}) as Record<string, unknown>;
  const newMeta = (obj.metadata ?? {}) as Record<string, unknown>;
  for (const field of ["ownerReferences", "finalizers"]) {
    if (newMeta[field] === undefined) delete meta[field];
    else meta[field] = newMeta[field];
  }
  copy.metadata = meta;
  return isDeepStrictEqual(copy, obj);
}

export function clusterTrustBundleAttest(context: AdmissionPluginContext): AdmissionPlugin {
  return {
    name: "ClusterTrustBundleAttest",
    async validate(a: AdmissionAttributes): Promise<void> {
      if (a.kind.group !== "certificates.k8s.io" || a.kind.resource.plural !== "clustertrustbundles") return;
      if (a.operation !== "CREATE" && a.operation !== "UPDATE") return;
      if (a.request === undefined) return;
      const signerName = signerNameOf(a.object);
      if (signerName === "") return;
      if (a.operation === "UPDATE" && onlyGarbageCollectionFields(a.object, a.oldObject)) return;
      if (await authorizedForSigner(context.authorizer(), a.request.user, "attest", signerName)) return;
      throw admissionForbidden(a, `user not permitted to attest for signerName "${signerName}"`);
    },
  };
}
