// meta.k8s.io PartialObjectMetadata(List): an object reduced to its metadata, as kube-apiserver answers
// `Accept: application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1` (metadata-only clients and informers).

export type MetaVersion = "v1" | "v1beta1";

export function metaApiVersion(version: MetaVersion): string {
  return `meta.k8s.io/${version}`;
}

export function toPartialObjectMetadata(obj: Record<string, unknown>, version: MetaVersion): Record<string, unknown> {
  return { kind: "PartialObjectMetadata", apiVersion: metaApiVersion(version), metadata: obj.metadata ?? {} };
}

/** ListMeta as Go encodes it: empty strings and an unset remainingItemCount are omitted. */
export function listMetaOf(meta: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (meta === undefined) return out;
  for (const key of ["resourceVersion", "continue"] as const) {
    const value = meta[key];
    if (typeof value === "string" && value !== "") out[key] = value;
  }
  if (typeof meta.remainingItemCount === "number") out.remainingItemCount = meta.remainingItemCount;
  return out;
}

/** kube-apiserver builds the items by appending, so an empty list encodes `items: null`. */
export function toPartialObjectMetadataList(
  items: readonly Record<string, unknown>[],
  listMeta: Record<string, unknown> | undefined,
  version: MetaVersion,
): Record<string, unknown> {
  return {
    kind: "PartialObjectMetadataList",
    apiVersion: metaApiVersion(version),
    metadata: listMetaOf(listMeta),
    items: items.length === 0 ? null : items.map((item) => toPartialObjectMetadata(item, version)),
  };
}
