// What the certificate plugins read of a write: whether it is about a CertificateSigningRequest, its signer.
import type { KubeObject } from "../../object/kube-object.js";
import type { AdmissionAttributes } from "../admission.js";

export function isCertificateSigningRequest(a: AdmissionAttributes): boolean {
  return a.kind.group === "certificates.k8s.io" && a.kind.resource.plural === "certificatesigningrequests";
}

export function signerNameOf(obj: KubeObject | undefined): string {
  const signerName = (obj?.spec as { signerName?: unknown } | undefined)?.signerName;
  return typeof signerName === "string" ? signerName : "";
}
