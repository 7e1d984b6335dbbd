// Field ownership on the write path: which schema a kind's managedFields are computed against, which
// top-level fields an endpoint resets (and so never hands to its writer), and the two ways a write
// records ownership: an apply intent merged into the live object, or an update taking what it changed.
import { fieldTable } from "../../generated/fields.js";
import { validationKey } from "../../generated/validation.js";
import {
  applyConfiguration,
  type FieldManagerContext,
  type ManagedSchema,
  schemaForKind,
  updateManagedFields,
} from "../apply/field-manager.js";
import type { CustomKind } from "../registry/custom-kind.js";
import type { ServedKind } from "../registry/lookup.js";
import type { KubeObject } from "../strategies/strategy.js";
import type { Target } from "./api-context.js";
import { apiVersionOf, hasStatus } from "./kinds.js";
import { formatTime } from "./timestamps.js";

/** Who writes, and where ownership is recorded when that differs from the target (scale writes the parent). */
export interface FieldOwner {
  manager: string;
  subresource?: string;
}

/** The kind's schema for field ownership; kinds without one are treated as unstructured (no root). */
export function managedSchemaOf(kind: {
  group: string;
  version: string;
  kind: string;
  custom?: CustomKind;
}): ManagedSchema {
  return kind.custom?.fields ?? schemaForKind(fieldTable, validationKey(kind.group, kind.version, kind.kind));
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
