// kube's CertificateSigning admission: an update through certificatesigningrequests/status that changes the
// certificate or the conditions needs `sign` on the request's signer (or its domain's wildcard). Writes of
// the in-server controllers have no request and pass, as kube-controller-manager's roles allow them.
import { isDeepStrictEqual } from "node:util";
import type { KubeObject } from "../../object/kube-object.js";
import type { AdmissionAttributes, AdmissionPlugin } from "../admission.js";
import { admissionForbidden } from "../admission-forbidden.js";
import type { AdmissionPluginContext } from "../plugin-context.js";
import { isCertificateSigningRequest, signerNameOf } from "./certificate-attributes.js";
import { authorizedForSigner } from "./signer-authorization.js";

function statusField(obj: KubeObject | undefined, field: "certificate" | "conditions"): unknown {
  return (obj?.status as Record<string, unknown> | undefined)?.[field];
}

export function certificateSigning(context: AdmissionPluginContext): AdmissionPlugin {
  return {
    name: "CertificateSigning",
    async validate(a: AdmissionAttributes): Promise<void> {
      if (a.operation !== "UPDATE" || a.subresource !== "status" || !isCertificateSigningRequest(a)) return;
      if (a.request === undefined) return;
      const unchanged = (["certificate", "conditions"] as const).every((field) =>
        isDeepStrictEqual(statusField(a.object, field) ?? null, statusField(a.oldObject, field) ?? null),
      );
      if (unchanged) return;
      const signerName = signerNameOf(a.oldObject);
      if (await authorizedForSigner(context.authorizer(), a.request.user, "sign", signerName)) return;
      throw admissionForbidden(a, `user not permitted to sign requests with signerName "${signerName}"`);
    },
  };
}
