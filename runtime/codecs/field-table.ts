// The shape of `generated/fields.ts`: for every definition a kind reaches, the property names kube's typed
// decoder knows and what each one holds. Request decoding walks a body against it to drop unknown fields,
// notice duplicate keys and refuse values of the wrong JSON type, as kube-apiserver's decoder does.

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
  /** Anything, kept as sent and not looked into (RawExtension, JSON, x-kubernetes-preserve-unknown-fields). */
  | "any";

/** What a field holds: a struct (index into `FieldTable.definitions`), a scalar, a list or a string-keyed map. */
export type FieldNode = number | ScalarField | { list: FieldNode } | { map: FieldNode };

export interface FieldDefinition {
  /** The Go type's name and package as kube's decoding errors print them: `v1.DeploymentSpec`. */
  name: string;
  pkg: string;
  fields: Readonly<Record<string, FieldNode>>;
}

export interface FieldTable {
  definitions: readonly FieldDefinition[];
  /** Definition of each kind, keyed as `generated/validation.ts` keys kinds: "apps/v1/Deployment", "v1/Pod". */
  kinds: Readonly<Record<string, number>>;
}
