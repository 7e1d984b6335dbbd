// The shape of generated/registry.ts: one record per kind of every group/version. The runtime owns it so the
// generated table is checked against what the runtime reads.

export type Stability = "alpha" | "beta" | "stable";
export type Scope = "Namespaced" | "Cluster";
export type NameFormat = "dns-subdomain" | "dns-label" | "dns-1035-label" | "path-segment";
export type Verb = "get" | "list" | "watch" | "create" | "update" | "patch" | "delete" | "deletecollection" | "proxy";

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

export interface Lifecycle {
  introduced?: string;
  deprecated?: string;
  removed?: string;
  replacement?: string;
}

export interface SubresourceRecord {
  name: string;
  verbs: readonly Verb[];
  /** The kind served at the subresource when it is not the parent kind (scale → autoscaling/v1 Scale). */
  kind?: GroupVersionKind;
  /** Where a scale subresource reads and writes replicas in the parent object. */
  scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string };
  /** Served only by the strategy hook of this name (pods/log, namespaces/finalize, …). */
  hook?: string;
}

export interface PrinterColumn {
  name: string;
  type: "string" | "integer" | "number" | "boolean" | "date";
  format?: string;
  /** Where the cell is read, as a CRD's additionalPrinterColumns read it; a column has this or `cell`. */
  jsonPath?: string;
  /** The printer cell computing the value, `<module>.<cell>` of runtime/printers/ (`pod.ready`). */
  cell?: string;
  priority?: number;
  description?: string;
}

export interface ResourceRecord {
  plural: string;
  singular: string;
  scope: Scope;
  nameFormat: NameFormat;
  verbs: readonly Verb[];
  shortNames: readonly string[];
  categories: readonly string[];
  subresources: readonly SubresourceRecord[];
  /** Objects of this resource are stored in this version. */
  storageVersion: boolean;
  /** Objects live in another resource's storage (events.k8s.io events are core events). */
  storedAs?: { group: string; resource: string };
  /** Nothing is stored: the server computes every answer. */
  virtual: boolean;
  printerColumns: readonly PrinterColumn[];
  /** Labels beyond metadata.name and metadata.namespace usable in field selectors, with how each is read. */
  selectableFields: readonly (string | SelectableField)[];
  /** The kind's own field label conversion; absent: apimachinery's default (name and namespace). */
  fieldLabelConversion?: FieldLabelConversion;
}

/** A field selector label read from JSONPaths other than its own dotted path. */
export interface SelectableField {
  label: string;
  /** JSONPaths in the kind's version tried in order, the first non-empty value wins; empty: never set. */
  jsonPaths?: readonly string[];
  /** The value when no path gives one (a Go zero value: "false", "0"). */
  default?: string;
}

export interface FieldLabelConversion {
  /** The error for an unknown label as a Go format: `%s` the label, `%q` the label quoted. */
  error: string;
  /** Whether metadata.namespace is accepted. */
  namespace: boolean;
}

export interface KindRecord {
  group: string;
  version: string;
  kind: string;
  listKind?: string;
  stability: Stability;
  enabledByDefault: boolean;
  /** Discovery order of the group (lower first) and of this version within it (lower preferred). */
  priority?: { group: number; version: number };
  lifecycle?: Lifecycle;
  /** Absent for kinds that are not served (options, review payloads, shared meta kinds). */
  resource?: ResourceRecord;
  /** The strategy module (runtime/strategies/<name>.ts) the schema names; the KindRegistry resolves it. */
  strategy?: string;
}
