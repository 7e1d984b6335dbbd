// Behaviour a schema cannot declare, kept in a small module per concern and named by schemas
// (`strategy: <module>` on a kind). The generated registry wires each module to its kinds, so the
// runtime calls hooks without ever testing for a kind by name.
import type { FieldError } from "../errors/field-error.js";

/** A decoded object as JSON: what every hook receives and may change in place. */
export type KubeObject = Record<string, unknown>;

export interface Strategy {
  /** Defaults that depend on other values (a container's pull policy from its image tag). */
  default?(obj: KubeObject): void;
  /** Checks beyond the schema's structural rules; returns field errors, never throws them. */
  validate?(obj: KubeObject, old?: KubeObject): FieldError[];
}
