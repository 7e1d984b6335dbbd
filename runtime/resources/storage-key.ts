// Where objects of a resource live in the store: `/registry/<group>/<resource>/` with the namespace as the
// next segment for namespaced resources, so a namespace is one contiguous key range (etcd's layout, with
// the group always named so two groups' resources of one name never share a prefix).

export interface StorageResource {
  /** The core group is "core" here, so no prefix is a prefix of another. */
  group: string;
  resource: string;
}

export function storagePrefix(r: StorageResource): string {
  return `/registry/${r.group === "" ? "core" : r.group}/${r.resource}/`;
}

export function objectKey(prefix: string, namespace: string | undefined, name: string): string {
  return namespace === undefined ? `${prefix}${name}` : `${prefix}${namespace}/${name}`;
}
