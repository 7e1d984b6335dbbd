// kube's CertificateApproval admission: an update through certificatesigningrequests/approval needs `approve`
// on the request's signer (or its domain's wildcard). Writes of the in-server controllers have no request
// and pass, as kube-controller-manager's roles allow them.
import type { AdmissionAttributes, AdmissionPlugin } from "../admission.js";
import { admissionForbidden } from "../admission-forbidden.js";
import type { AdmissionPluginContext } from "../plugin-context.js";
import { isCertificateSigningRequest, signerNameOf } from "./certificate-attributes.js";
import { authorizedForSigner } from "./signer-authorization.js";

export function certificateApproval(context: AdmissionPluginContext): AdmissionPlugin {
  return {
    name: "CertificateApproval",
    async validate(a: AdmissionAttributes): Promise<void> {
      if (a.operation !== "UPDATE" || a.subresource !== "approval" || !isCertificateSigningRequest(a)) return;
      if (a.request === undefined) return;
      const signerName = signerNameOf(a.oldObject);
      if (await authorizedForSigner(context.authorizer(), a.request.user, "approve", signerName)) return;
      throw admissionForbidden(a, `user not permitted to approve requests with signerName "${signerName}"`);
    },
  };
}
