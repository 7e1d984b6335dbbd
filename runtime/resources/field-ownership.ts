// Field ownership on the write path: which schema a kind's managedFields are computed against, which
// top-level fields an endpoint resets (and so never hands to its writer), and the two ways a write
// records ownership: an apply intent merged into the live object, or an update taking what it changed.
import {
  applyConfiguration,
  type FieldManagerContext,
  type ManagedSchema,
  updateManagedFields,
} from "../apply/field-manager.js";
import type { KubeObject } from "../object/kube-object.js";
import { builtinSchema } from "../registry/builtin-schema.js";
import type { GroupVersionKind } from "../registry/kind-record.js";
import { apiVersionOf, hasStatus } from "../registry/kinds.js";
import type { ServedKind } from "../registry/served-kind.js";
import type { Target } from "./api-context.js";
import { formatTime } from "./timestamps.js";

/** Who writes, and where ownership is recorded when that differs from the target (scale writes the parent). */
export interface FieldOwner {
  manager: string;
  subresource?: string;
}

/**
 * The schema field ownership walks objects of a served kind with, or of a kind a subresource serves (a Scale);
 * kinds without one are treated as unstructured (no root).
 */
export function managedSchemaOf(kind: ServedKind | GroupVersionKind): ManagedSchema {
  return "schema" in kind ? kind.schema.fields : builtinSchema(kind).fields;
}

/**
 * What an endpoint resets, as kube's strategies' GetResetFields declare it: the main resource of a kind
 * with a status subresource never takes status; the status subresource never takes anything but status
 * and metadata, and not the labels.
 */
export function resetPathsOf(kind: ServedKind, subresource: string | undefined): string[][] {
  if (!hasStatus(kind)) return [];
  if (subresource !== "status") return [["status"]];
  const { table, root } = managedSchemaOf(kind);
  const fields = typeof root === "number" ? Object.keys(table.definitions[root]?.fields ?? {}) : [];
  const reset = fields.filter((f) => !["apiVersion", "kind", "metadata", "status"].includes(f)).map((f) => [f]);
  return [...reset, ["metadata", "labels"]];
}

function contextOf(target: Target, owner: FieldOwner, now: Date): FieldManagerContext {
  const subresource = owner.subresource ?? target.subresource;
  return {
    manager: owner.manager,
    apiVersion: apiVersionOf(target.kind),
    ...(subresource === undefined ? {} : { subresource }),
    time: formatTime(now),
    resetPaths: resetPathsOf(target.kind, target.subresource),
  };
}

/** `next` with managedFields recomputed for an update (create when `live` is undefined) by `owner`. */
export function trackUpdate(
  target: Target,
  live: KubeObject | undefined,
  next: KubeObject,
  owner: FieldOwner,
  now: Date,
): KubeObject {
  return updateManagedFields(managedSchemaOf(target.kind), live, next, contextOf(target, owner, now));
}

/** The object an apply intent makes of `live` (absent: the object to create), or a 409 Conflict. */
export function applyIntent(
  target: Target,
  live: KubeObject | undefined,
  config: KubeObject,
  owner: FieldOwner & { force: boolean },
  now: Date,
): KubeObject {
  return applyConfiguration(managedSchemaOf(target.kind), live, config, {
    ...contextOf(target, owner, now),
    kind: target.kind.kind,
    force: owner.force,
  });
}
