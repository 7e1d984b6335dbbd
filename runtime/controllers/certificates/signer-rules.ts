// What kube's in-tree signers require of a request before they sign it (pkg/apis/certificates helpers and
// the signer's per-signer checks); a request that fails gets a Failed condition with the text returned.
import { isDeepStrictEqual } from "node:util";
import type { CertificateRequest } from "../../strategies/certificate-signing-request-parse.js";

export const kubeApiServerClientSigner = "kubernetes.io/kube-apiserver-client";
export const kubeletClientSigner = "kubernetes.io/kube-apiserver-client-kubelet";
export const kubeletServingSigner = "kubernetes.io/kubelet-serving";
export const legacyUnknownSigner = "kubernetes.io/legacy-unknown";

function sameSet(usages: readonly string[], wanted: readonly string[]): boolean {
  return isDeepStrictEqual([...new Set(usages)].sort(), [...wanted].sort());
}

/** Go's fmt of a sorted string set: `[a b c]`. */
function listed(values: readonly string[]): string {
  return `[${[...values].sort().join(" ")}]`;
}

const kubeletServingUsages = ["digital signature", "key encipherment", "server auth"];
const kubeletClientUsages = ["digital signature", "key encipherment", "client auth"];

function withoutKeyEncipherment(usages: readonly string[]): string[] {
  return usages.filter((u) => u !== "key encipherment");
}

/** ValidateKubeletServingCSR. */
export function kubeletServingProblem(request: CertificateRequest, usages: readonly string[]): string | undefined {
  if (!isDeepStrictEqual(request.organizations, ["system:nodes"])) return "subject organization is not system:nodes";
  if (request.dnsNames.length === 0 && request.ipAddresses.length === 0) return "DNS or IP subjectAltName is required";
  if (request.emailAddresses.length > 0) return "Email subjectAltNames are not allowed";
  if (request.uris.length > 0) return "URI subjectAltNames are not allowed";
  if (!sameSet(usages, kubeletServingUsages) && !sameSet(usages, withoutKeyEncipherment(kubeletServingUsages))) {
    return `usages did not match ${listed(kubeletServingUsages)}`;
  }
  if (!request.commonName.startsWith("system:node:")) return "subject common name does not begin with system:node:";
  return undefined;
}

/** ValidateKubeletClientCSR. */
export function kubeletClientProblem(request: CertificateRequest, usages: readonly string[]): string | undefined {
  if (!isDeepStrictEqual(request.organizations, ["system:nodes"])) return "subject organization is not system:nodes";
  if (request.dnsNames.length > 0) return "DNS subjectAltNames are not allowed";
  if (request.emailAddresses.length > 0) return "Email subjectAltNames are not allowed";
  if (request.ipAddresses.length > 0) return "IP subjectAltNames are not allowed";
  if (request.uris.length > 0) return "URI subjectAltNames are not allowed";
  if (!request.commonName.startsWith("system:node:")) return "subject common name does not begin with system:node:";
  if (!sameSet(usages, kubeletClientUsages) && !sameSet(usages, withoutKeyEncipherment(kubeletClientUsages))) {
    return `usages did not match ${listed(kubeletClientUsages)}`;
  }
  return undefined;
}

/** validAPIServerClientUsages. */
function apiServerClientProblem(usages: readonly string[]): string | undefined {
  let clientAuth = false;
  for (const usage of usages) {
    if (usage === "client auth") clientAuth = true;
    else if (usage !== "digital signature" && usage !== "key encipherment") {
      return `invalid usage for client certificate: ${usage}`;
    }
  }
  return clientAuth ? undefined : "missing required usage for client certificate: client auth";
}

/** Why the signer named refuses the request; undefined when it signs it. */
export function signerProblem(
  signerName: string,
  request: CertificateRequest,
  usages: readonly string[],
): string | undefined {
  switch (signerName) {
    case kubeletServingSigner:
      return kubeletServingProblem(request, usages);
    case kubeletClientSigner:
      return kubeletClientProblem(request, usages);
    case kubeApiServerClientSigner:
      return apiServerClientProblem(usages);
    default:
      return undefined;
  }
}

/** The signers kube-controller-manager's csrsigning runs with its cluster signing CA. */
export const inTreeSigners: ReadonlySet<string> = new Set([
  kubeletServingSigner,
  kubeletClientSigner,
  kubeApiServerClientSigner,
  legacyUnknownSigner,
]);
