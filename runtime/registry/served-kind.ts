// A kind as one server serves it: the generated table's record with its strategy resolved, or a version of a
// custom resource carrying what the tables give built-in kinds (validation, defaults, fields, conversion).
import type { ManagedSchema } from "../apply/typed/managed-schema.js";
import type { StructuralSchema } from "../cel/rules/structural-schema.js";
import type { FieldError } from "../errors/field-error.js";
import type { KubeObject } from "../object/kube-object.js";
import type { KindRecord, ResourceRecord } from "./kind-record.js";
import type { Strategy } from "./strategy.js";

/** A kind table's record of a kind with a resource. */
export type ResourceKindRecord = KindRecord & { resource: ResourceRecord };

/**
 * What a kind's schema gives the write path, alike for built-in kinds (from the generated tables) and custom
 * ones (from their definition).
 */
export interface KindSchema {
  /**
   * Structural errors, paths starting at the object's top-level fields; `old` on an update (a kind that
   * ratchets drops errors on values the update left unchanged).
   */
  validate(obj: unknown, old?: unknown): FieldError[];
  /** Updates ratchet: schema and CEL rule errors on unchanged values are dropped (custom resources, as kube's). */
  ratchets?: boolean;
  /** Schema defaults, in place (for a custom kind also on every read from storage). */
  default(obj: unknown): void;
  /** The schema whose CEL rules (x-kubernetes-validations) apply, for kinds that have any. */
  celSchema?: StructuralSchema;
  /** The schema field ownership (server-side apply) and strategic merge patch walk objects with. */
  fields: ManagedSchema;
}

/**
 * How objects of a kind's group move between its versions on reads and writes: for built-in kinds through the
 * generated conversion table, for custom kinds as their definition says (None, or a webhook round trip).
 */
export interface KindVersions {
  /** Objects of the group, any served version, in `version` at once; absent when that needs a round trip. */
  convertSync?(obj: KubeObject, version: string): KubeObject;
  /** The same for several objects, with the round trip where one is needed. */
  convert(objects: KubeObject[], version: string): Promise<KubeObject[]>;
  /** Changes with every build of the kind, so views made for an earlier one are not reused ("" for built-in kinds). */
  viewKey: string;
  /** What every read view gets before it is shared (a custom kind's schema defaults); absent: nothing. */
  finishRead?(obj: KubeObject): void;
}

/**
 * A kind as a KindRegistry serves it: its record with the strategy resolved, its schema and its versions;
 * kinds defined at run time (custom resources) also carry what only they have (pruning, their definition).
 */
export type ServedKind = Omit<KindRecord, "strategy"> & {
  resource: ResourceRecord;
  strategy?: Strategy;
  schema: KindSchema;
  versions: KindVersions;
  custom?: CustomKind;
};

export interface CustomKind extends KindSchema {
  /** The definition's name (`crontabs.stable.example.com`) and uid: a kind is replaced when either changes. */
  definition: { name: string; uid: string };
  /** Removes undeclared fields in place; returns their paths (`spec.foo`). */
  prune(obj: unknown): string[];
  /** The served kind of the version objects are stored in. */
  storage(): ServedKind;
  /** The Warning every request to this version gets when the version is deprecated. */
  deprecationWarning?: string;
  /** The definition is being deleted: its objects can be read and deleted, not created. */
  terminating?: boolean;
}
