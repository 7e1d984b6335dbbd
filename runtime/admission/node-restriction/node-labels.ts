// Which Node labels a kubelet may set on its own Node (kube's kubeletapis.IsKubeletLabel and NodeRestriction's
// getForbiddenLabels): nothing under node-restriction.kubernetes.io/, and of the kubernetes.io and k8s.io
// namespaces only the well-known labels kubelets set themselves and the kubelet.kubernetes.io and
// node.kubernetes.io namespaces. (The reference build also lets a node register with some node-role labels;
// that is an OpenShift carry patch, kubeletapis.IsForbiddenOpenshiftLabel, which upstream kube does not have.)

const kubeletLabels: ReadonlySet<string> = new Set([
  "kubernetes.io/hostname",
  "topology.kubernetes.io/zone",
  "topology.kubernetes.io/region",
  "failure-domain.beta.kubernetes.io/zone",
  "failure-domain.beta.kubernetes.io/region",
  "beta.kubernetes.io/instance-type",
  "node.kubernetes.io/instance-type",
  "kubernetes.io/os",
  "kubernetes.io/arch",
  "beta.kubernetes.io/os",
  "beta.kubernetes.io/arch",
]);

const kubeletLabelNamespaces = ["kubelet.kubernetes.io", "node.kubernetes.io"];

const nodeRestrictionNamespace = "node-restriction.kubernetes.io";

/** The prefix of a label key before its `/`; "" for a key without one. */
function labelNamespace(key: string): string {
  const slash = key.indexOf("/");
  return slash < 0 ? "" : key.slice(0, slash);
}

function inNamespace(namespace: string, domain: string): boolean {
  return namespace === domain || namespace.endsWith(`.${domain}`);
}

function isKubeletLabel(key: string): boolean {
  if (kubeletLabels.has(key)) return true;
  const namespace = labelNamespace(key);
  return kubeletLabelNamespaces.some((allowed) => inNamespace(namespace, allowed));
}

function isKubernetesLabel(key: string): boolean {
  const namespace = labelNamespace(key);
  return inNamespace(namespace, "kubernetes.io") || inNamespace(namespace, "k8s.io");
}

/** The keys added, removed or changed between two label maps. */
export function modifiedLabels(next: Record<string, string>, previous: Record<string, string>): string[] {
  const keys = new Set([...Object.keys(next), ...Object.keys(previous)]);
  return [...keys].filter((key) => next[key] !== previous[key]);
}

/** Of the modified keys, those a node may not set, sorted (Go's sets.String.List). */
export function forbiddenLabels(modified: readonly string[]): string[] {
  return modified
    .filter(
      (key) =>
        inNamespace(labelNamespace(key), nodeRestrictionNamespace) || (isKubernetesLabel(key) && !isKubeletLabel(key)),
    )
    .sort();
}
