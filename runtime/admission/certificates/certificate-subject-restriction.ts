// kube's CertificateSubjectRestriction admission: a request to the kube-apiserver-client signer may not ask
// for the system:masters organization, which would make its holder a cluster administrator.
import { CertificateRequestError, requestOf } from "../../strategies/certificate-signing-request-parse.js";
import type { AdmissionAttributes, AdmissionPlugin } from "../admission.js";
import { admissionForbidden } from "../admission-forbidden.js";
import { isCertificateSigningRequest, signerNameOf } from "./certificate-attributes.js";

const kubeApiServerClientSigner = "kubernetes.io/kube-apiserver-client";

export function certificateSubjectRestriction(): AdmissionPlugin {
  return {
    name: "CertificateSubjectRestriction",
    validate(a: AdmissionAttributes): void {
      if (a.operation !== "CREATE" || a.subresource !== undefined || !isCertificateSigningRequest(a)) return;
      if (signerNameOf(a.object) !== kubeApiServerClientSigner) return;
      let organizations: string[];
      try {
        organizations = requestOf(a.object?.spec as { request?: unknown }).organizations;
      } catch (error) {
        if (!(error instanceof CertificateRequestError)) throw error;
        throw admissionForbidden(a, `failed to parse CSR: ${error.message}`);
      }
      if (organizations.includes("system:masters")) {
        throw admissionForbidden(
          a,
          `use of ${kubeApiServerClientSigner} signer with system:masters group is not allowed`,
        );
      }
    },
  };
}
