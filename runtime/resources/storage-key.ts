// Where objects of a resource live in the store: `/registry/<group>/<resource>/` with the namespace as the
// next segment for namespaced resources, so a namespace is one contiguous key range (etcd's layout, with
// the group always named so two groups' resources of one name never share a prefix).

export interface StorageResource {
  /** The core group is "core" here, so no prefix is a prefix of another. */
  group: string;
  resource: string;
}

/** The resource whose storage holds `kind`'s objects: its own, or the one its record names (`storedAs`). */
export function storageResourceOf(kind: {
  group: string;
  resource: { plural: string; storedAs?: StorageResource | undefined };
}): StorageResource {
  return kind.resource.storedAs ?? { group: kind.group, resource: kind.resource.plural };
}

export function storagePrefix(r: StorageResource): string {
  return `/registry/${r.group === "" ? "core" : r.group}/${r.resource}/`;
}

export function objectKey(prefix: string, namespace: string | undefined, name: string): string {
  return namespace === undefined ? `${prefix}${name}` : `${prefix}${namespace}/${name}`;
}
