// The APIServices kube-apiserver v1.36 registers for its own group/versions: one per group/version it serves
// that its priority table names (a group/version missing from the table gets none, so that it can never be
// stuck in the list), named `<version>.<group>`, with the table's group and version priorities.

/** An APIService's spec as the autoregistration writes it. */
export interface ApiServiceSpec {
  group: string;
  version: string;
  groupPriorityMinimum: number;
  versionPriority: number;
}

/** kube-apiserver's table (the generic control plane's, then kube-apiserver's own over it): group/version → [group, version] priority. */
const priorities: ReadonlyMap<string, readonly [number, number]> = new Map([
  ["/v1", [18000, 1]],
  ["events.k8s.io/v1", [17750, 15]],
  ["events.k8s.io/v1beta1", [17750, 5]],
  ["authentication.k8s.io/v1", [17700, 15]],
  ["authentication.k8s.io/v1beta1", [17700, 9]],
  ["authentication.k8s.io/v1alpha1", [17700, 1]],
  ["authorization.k8s.io/v1", [17600, 15]],
  ["certificates.k8s.io/v1", [17300, 15]],
  ["certificates.k8s.io/v1beta1", [17300, 9]],
  ["certificates.k8s.io/v1alpha1", [17300, 1]],
  ["rbac.authorization.k8s.io/v1", [17000, 15]],
  ["apiextensions.k8s.io/v1", [16700, 15]],
  ["admissionregistration.k8s.io/v1", [16700, 15]],
  ["admissionregistration.k8s.io/v1beta1", [16700, 12]],
  ["admissionregistration.k8s.io/v1alpha1", [16700, 9]],
  ["coordination.k8s.io/v1", [16500, 15]],
  ["coordination.k8s.io/v1beta1", [16500, 13]],
  ["coordination.k8s.io/v1alpha2", [16500, 12]],
  ["discovery.k8s.io/v1", [16200, 15]],
  ["discovery.k8s.io/v1beta1", [16200, 12]],
  ["flowcontrol.apiserver.k8s.io/v1", [16100, 21]],
  ["flowcontrol.apiserver.k8s.io/v1beta3", [16100, 18]],
  ["flowcontrol.apiserver.k8s.io/v1beta2", [16100, 15]],
  ["flowcontrol.apiserver.k8s.io/v1beta1", [16100, 12]],
  ["flowcontrol.apiserver.k8s.io/v1alpha1", [16100, 9]],
  ["internal.apiserver.k8s.io/v1alpha1", [16000, 9]],
  ["storagemigration.k8s.io/v1beta1", [15800, 9]],
  ["apps/v1", [17800, 15]],
  ["autoscaling/v1", [17500, 15]],
  ["autoscaling/v2", [17500, 30]],
  ["autoscaling/v2beta1", [17500, 9]],
  ["autoscaling/v2beta2", [17500, 1]],
  ["batch/v1", [17400, 15]],
  ["batch/v1beta1", [17400, 9]],
  ["batch/v2alpha1", [17400, 9]],
  ["networking.k8s.io/v1", [17200, 15]],
  ["networking.k8s.io/v1beta1", [17200, 9]],
  ["policy/v1", [17100, 15]],
  ["policy/v1beta1", [17100, 9]],
  ["storage.k8s.io/v1", [16800, 15]],
  ["storage.k8s.io/v1beta1", [16800, 9]],
  ["storage.k8s.io/v1alpha1", [16800, 1]],
  ["scheduling.k8s.io/v1", [16600, 15]],
  ["scheduling.k8s.io/v1alpha2", [16600, 2]],
  ["node.k8s.io/v1", [16300, 15]],
  ["node.k8s.io/v1alpha1", [16300, 1]],
  ["node.k8s.io/v1beta1", [16300, 9]],
  ["resource.k8s.io/v1", [16200, 21]],
  ["resource.k8s.io/v1beta2", [16200, 15]],
  ["resource.k8s.io/v1beta1", [16200, 9]],
  ["resource.k8s.io/v1alpha3", [16200, 1]],
]);

/** Custom resources' APIServices sort after every built-in group; their versions sort by kube's version order. */
export const customGroupPriorityMinimum = 1000;
export const customVersionPriority = 100;

/** An APIService's name: `v1.apps`, and `v1.` for the core group. */
export function apiServiceName(group: string, version: string): string {
  return `${version}.${group}`;
}

/** The APIService kube-apiserver registers for one of its group/versions; undefined when its table has none. */
export function builtinApiService(group: string, version: string): ApiServiceSpec | undefined {
  const priority = priorities.get(`${group}/${version}`);
  if (priority === undefined) return undefined;
  return { group, version, groupPriorityMinimum: priority[0], versionPriority: priority[1] };
}
