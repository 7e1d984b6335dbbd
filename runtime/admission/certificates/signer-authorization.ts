// kube's certauthorization.IsAuthorizedForSignerName: a verb on the synthetic `signers` resource of
// certificates.k8s.io named by the signer, or by its domain's wildcard (`example.com/*`).
import type { Attributes, Authorizer } from "../../access/authorizer.js";
import type { UserInfo } from "../../access/user-info.js";

function signerAttributes(user: UserInfo, verb: string, name: string): Attributes {
  return {
    user,
    verb,
    resourceRequest: true,
    apiGroup: "certificates.k8s.io",
    apiVersion: "*",
    resource: "signers",
    subresource: "",
    namespace: "",
    name,
    path: "",
  };
}

export async function authorizedForSigner(
  authorizer: Authorizer,
  user: UserInfo,
  verb: string,
  signerName: string,
): Promise<boolean> {
  const exact = await authorizer.authorize(signerAttributes(user, verb, signerName));
  if (exact.decision === "allow") return true;
  const domain = signerName.split("/")[0] ?? "";
  const wildcard = await authorizer.authorize(signerAttributes(user, verb, `${domain}/*`));
  return wildcard.decision === "allow";
}
