// The shape of `generated/fields.ts`: for every definition a kind reaches, the property names kube's typed
// decoder knows and what each one holds. Request decoding walks a body against it to drop unknown fields,
// notice duplicate keys and refuse values of the wrong JSON type, as kube-apiserver's decoder does. The
// same table carries the merge markers that strategic merge patch and server-side apply read: list and
// map types, list map keys, atomic structs, patch strategies and merge keys.

/** A value without inner fields, named by the Go type it decodes into where that is a plain one. */
export type ScalarField =
  | "string"
  | "bool"
  | "int32"
  | "int64"
  | "float64"
  | "float32"
  /** A base64 string decoded into []byte. */
  | "bytes"
  /** A JSON integer or string (intstr.IntOrString). */
  | "int-or-string"
  /** A resource.Quantity: a JSON number or string that must parse as a quantity. */
  | "quantity"
  /** A metav1.Duration: a JSON string Go's time.ParseDuration must read. */
  | "duration"
  /** Anything, kept as sent and not looked into (RawExtension, JSON, x-kubernetes-preserve-unknown-fields). */
  | "any";

/** A list and its `x-kubernetes-list-type` / `x-kubernetes-list-map-keys` markers, when the schema has them. */
export interface ListField {
  list: FieldNode;
  listType?: "atomic" | "set" | "map";
  keys?: readonly string[];
}

/** A string-keyed map; `mapType` is its `x-kubernetes-map-type` marker when the schema has one. */
export interface MapField {
  map: FieldNode;
  mapType?: "atomic" | "granular";
}

/** What a field holds: a struct (index into `FieldTable.definitions`), a scalar, a list or a string-keyed map. */
export type FieldNode = number | ScalarField | ListField | MapField;

/** A property's `x-kubernetes-patch-strategy` (comma-separated, e.g. "merge,retainKeys") and merge key. */
export interface PatchMarkers {
  strategy?: string;
  mergeKey?: string;
}

export interface FieldDefinition {
  /** The Go type's name and package as kube's decoding errors print them: `v1.DeploymentSpec`. */
  name: string;
  pkg: string;
  fields: Readonly<Record<string, FieldNode>>;
  /**
   * The node type of fields a struct does not declare (structured-merge-diff's Map.ElementType), when it
   * keeps them: `"any"` for a custom resource object with `x-kubernetes-preserve-unknown-fields`. Without
   * it an undeclared field is unknown.
   */
  otherFields?: FieldNode;
  /** The struct is replaced as a whole by apply (`x-kubernetes-map-type: atomic` on the definition). */
  atomic?: true;
  /** Patch markers of the properties that have them. */
  patch?: Readonly<Record<string, PatchMarkers>>;
  /** Each property's schema `default` (apply fills a list map key a configuration leaves out). */
  defaults?: Readonly<Record<string, unknown>>;
  /**
   * Properties a Go object always serializes even when JSON leaves them out: `null` for required ones,
   * `{}` for non-pointer structs (schema `default: {}`).
   */
  present?: Readonly<Record<string, null | Readonly<Record<string, never>>>>;
}

export interface FieldTable {
  definitions: readonly FieldDefinition[];
  /** Definition of each kind, keyed as `generated/validation.ts` keys kinds: "apps/v1/Deployment", "v1/Pod". */
  kinds: Readonly<Record<string, number>>;
}
