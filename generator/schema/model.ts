// The schema file format: one YAML document per group/version under schemas/.
// docs/schema-format.md describes every field; this module is its TypeScript shape.

export type Stability = "alpha" | "beta" | "stable";
export type Scope = "Namespaced" | "Cluster";
export type NameFormat = "dns-subdomain" | "dns-label" | "dns-1035-label" | "path-segment";
export type Verb = "get" | "list" | "watch" | "create" | "update" | "patch" | "delete" | "deletecollection" | "proxy";

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

/** A release such as "1.22"; kapi compares them numerically by minor version. */
export type Release = string;

export interface Lifecycle {
  introduced?: Release;
  deprecated?: Release;
  removed?: Release;
  /** apiVersion/kind (or a free form like "pod security admission") clients should move to. */
  replacement?: string;
}

export interface Subresource {
  name: string;
  verbs: Verb[];
  /** The kind served at the subresource when it is not the parent kind (scale → autoscaling/v1 Scale). */
  kind?: GroupVersionKind;
  /** Where a scale subresource reads and writes replicas in the parent object (JSON paths). */
  scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string };
  /** Subresource served only by a strategy hook of this name (pods/log, namespaces/finalize, …). */
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

export interface ResourceMapping {
  plural: string;
  singular: string;
  scope: Scope;
  nameFormat: NameFormat;
  verbs: Verb[];
  shortNames?: string[];
  categories?: string[];
  subresources?: Subresource[];
  /** This group/version is where the resource is stored; exactly one version of a group says so. */
  storageVersion?: boolean;
  /** Objects live in another resource's storage (events.k8s.io events are core events). */
  storedAs?: { group: string; resource: string };
  /** Nothing is stored: the server computes every answer (componentstatuses, reviews). */
  virtual?: boolean;
  printerColumns?: PrinterColumn[];
  /**
   * Labels a field selector may name beyond metadata.name and metadata.namespace: a label read at its own
   * dotted path, or a label with the JSONPaths its value comes from.
   */
  selectableFields?: (string | SelectableField)[];
  /** The kind's own field label conversion; absent: apimachinery's default (name and namespace). */
  fieldLabelConversion?: FieldLabelConversion;
}

/** A field selector label whose value is not simply at the label's own path. */
export interface SelectableField {
  label: string;
  /**
   * JSONPaths in the kind's own version (`.status.podIPs[0].ip`), tried in order: the first that gives a
   * non-empty value gives the field's. Absent: the label as a path. Empty: the label is accepted but the
   * object never sets it, so it reads as "".
   */
  jsonPaths?: string[];
  /** The value when no path gives one: how Go prints the zero value of a bool or integer ("false", "0"). */
  default?: string;
}

/** How kube-apiserver's field label conversion of the kind answers (AddFieldLabelConversionFunc). */
export interface FieldLabelConversion {
  /** The error for a label the kind does not know, a Go format: `%s` is the label, `%q` the label quoted. */
  error: string;
  /** Whether metadata.namespace is a label the conversion takes (default true). */
  namespace?: boolean;
}

export interface KindEntry {
  kind: string;
  /** Name of the list kind (its definition is generated: metadata ListMeta + items). */
  listKind?: string;
  /** Absent for kinds that are not served (options, configuration, embedded review payloads). */
  resource?: ResourceMapping;
  lifecycle?: Lifecycle;
  /** Name of a hand-written module under runtime/strategies/ carrying behaviour a schema cannot declare. */
  strategy?: string;
}

/** A protobuf field of a message that does not mirror the definition's properties (Time, Quantity, …). */
export interface ProtoWireField {
  name: string;
  number: number;
  type: string;
  repeated?: boolean;
}

export interface ProtoInline {
  name: string;
  number: number;
  $ref: string;
}

export interface CelRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  reason?: "FieldValueInvalid" | "FieldValueForbidden" | "FieldValueRequired" | "FieldValueDuplicate";
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

/** An OpenAPI v3 schema object with Kubernetes markers and kapi's own `x-kapi-*` markers. */
export interface SchemaNode {
  $ref?: string;
  type?: "object" | "array" | "string" | "integer" | "number" | "boolean";
  format?: string;
  description?: string;
  properties?: Record<string, SchemaNode>;
  additionalProperties?: SchemaNode | boolean;
  items?: SchemaNode;
  required?: string[];
  default?: unknown;
  enum?: unknown[];
  nullable?: boolean;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  minProperties?: number;
  maxProperties?: number;
  oneOf?: SchemaNode[];
  anyOf?: SchemaNode[];
  "x-kubernetes-list-type"?: "atomic" | "set" | "map";
  "x-kubernetes-list-map-keys"?: string[];
  "x-kubernetes-map-type"?: "atomic" | "granular";
  "x-kubernetes-patch-strategy"?: string;
  "x-kubernetes-patch-merge-key"?: string;
  "x-kubernetes-int-or-string"?: boolean;
  "x-kubernetes-preserve-unknown-fields"?: boolean;
  "x-kubernetes-embedded-resource"?: boolean;
  "x-kubernetes-validations"?: CelRule[];
  "x-kubernetes-unions"?: unknown[];
  /** Protobuf field number of this property in its message. */
  "x-kapi-proto"?: number;
  /** Protobuf field name where the JSON name is not one (`$ref` → `ref`, `uid` → `uID`). */
  "x-kapi-proto-name"?: string;
  /** Protobuf type when it differs from the one derived from the OpenAPI type (a wrapper message, sint64, …). */
  "x-kapi-proto-type"?: string;
  /**
   * On a definition: Go structs embedded inline in JSON that travel as one nested message on the wire
   * (Volume's VolumeSource). The referenced definition's properties are numbered there.
   */
  "x-kapi-proto-inline"?: ProtoInline[];
  /** On a definition: JSON only, no protobuf message (meta.k8s.io Table, as upstream). */
  "x-kapi-json-only"?: boolean;
  /** On a definition: the wire message when its fields do not mirror `properties`. */
  "x-kapi-proto-message"?: ProtoWireField[];
  /**
   * On a struct property with `default: {}`: a Go pointer that kube's Go defaulting fills in, not a
   * non-pointer struct Go always serializes (PodSpec.securityContext).
   */
  "x-kapi-go-pointer"?: boolean;
}

export interface SchemaFile {
  /** API group; "" for the core group. Absent in files that only share definitions. */
  group?: string;
  version?: string;
  stability?: Stability;
  /** Served unless disabled with --runtime-config (stable versions are). */
  enabledByDefault?: boolean;
  /** Order of the group in discovery (lower first) and of this version within it (lower preferred). */
  priority?: { group: number; version: number };
  protobuf?: { package: string };
  /** Prefix of definition names in OpenAPI documents (io.k8s.api.apps.v1). */
  openapi: { prefix: string };
  lifecycle?: Lifecycle;
  kinds?: KindEntry[];
  definitions: Record<string, SchemaNode>;
}
