// What the generated tables give a built-in kind (validation, defaults, field table, conversions), carried by
// the kind record itself for kinds defined while the server runs: the versions of a CustomResourceDefinition.
import type { ManagedSchema } from "../apply/managed-schema.js";
import type { StructuralSchema } from "../cel/kubernetes/structural-schema.js";
import type { FieldError } from "../errors/field-error.js";
import type { KubeObject } from "../strategies/strategy.js";
import type { ServedKind } from "./lookup.js";

export interface CustomKind {
  /** The definition's name (`crontabs.stable.example.com`) and uid: a kind is replaced when either changes. */
  definition: { name: string; uid: string };
  /** Different for every build of the kind: views of stored objects made for an earlier one are not reused. */
  viewKey: string;
  validate(obj: unknown): FieldError[];
  /** Schema defaults, in place: on every write and on every read from storage. */
  default(obj: unknown): void;
  /** Removes undeclared fields in place; returns their paths (`spec.foo`). */
  prune(obj: unknown): string[];
  celSchema?: StructuralSchema;
  fields: ManagedSchema;
  /** The served kind of the version objects are stored in. */
  storage(): ServedKind;
  /** Objects of the definition's group, any version, in `version`. */
  convert(objects: KubeObject[], version: string): Promise<KubeObject[]>;
  /** Present when conversion needs no round trip (strategy None). */
  convertSync?(obj: KubeObject, version: string): KubeObject;
  /** The Warning every request to this version gets when the version is deprecated. */
  deprecationWarning?: string;
  /** The definition is being deleted: its objects can be read and deleted, not created. */
  terminating?: boolean;
}
