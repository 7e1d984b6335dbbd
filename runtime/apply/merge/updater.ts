// Who owns what after a write (structured-merge-diff's merge.Updater). An update takes every field it adds
// or changes from whoever held it, without conflict. An apply owns exactly what its configuration names:
// changing a value someone else owns is a conflict unless forced, in which case they lose it; fields the
// manager applied before and omits now are removed from the object unless someone else still owns them.
// Every manager loses fields that are removed. Fields under `ignored` (what the endpoint resets) are owned
// by no one. Field paths are compared in the request's version only; managers recorded in another
// version are compared as if their paths were written in this one.

import { FieldSet } from "../fieldpath/field-set.js";
import { withNamedFieldsAsMembers } from "../fieldpath/named-fields.js";
import type { Path } from "../fieldpath/path-element.js";
import type { Managers } from "../managed-fields.js";
import { type Comparison, compareObjects } from "../typed/compare-objects.js";
import { valuesEqual } from "../typed/json-value.js";
import type { ManagedSchema, SchemaType } from "../typed/managed-schema.js";
import { mergeObjects } from "../typed/merge-objects.js";
import { reconcileWithSchema } from "../typed/reconcile-schema.js";
import { removeItems } from "../typed/remove-items.js";
import { fieldSetOf } from "../typed/to-field-set.js";

export interface UpdaterContext {
  readonly schema: ManagedSchema;
  readonly type: SchemaType;
  readonly apiVersion: string;
  /** Fields the endpoint resets, owned by no one. */
  readonly ignored: FieldSet;
}

export interface Conflict {
  /** The identifier of the manager owning the field. */
  readonly manager: string;
  readonly path: Path;
}

function reconciled(ctx: UpdaterContext, managers: Managers): Managers {
  const out: Managers = new Map();
  for (const [key, versioned] of managers) {
    out.set(key, { ...versioned, set: reconcileWithSchema(ctx.schema, ctx.type, versioned.set) });
  }
  return out;
}

function compareIgnoring(ctx: UpdaterContext, before: unknown, after: unknown): Comparison {
  const c = compareObjects(ctx.schema, ctx.type, before, after);
  return {
    added: c.added.recursiveDifference(ctx.ignored),
    modified: c.modified.recursiveDifference(ctx.ignored),
    removed: c.removed.recursiveDifference(ctx.ignored),
  };
}

/**
 * Takes what changed from `before` to `after` away from every manager but `writer`: the changed fields
 * they owned (the conflicts, for an apply) and the removed ones. Managers left with nothing are dropped.
 */
function takeChanges(
  ctx: UpdaterContext,
  before: unknown,
  after: unknown,
  managers: Managers,
  writer: string | undefined,
): { managers: Managers; comparison: Comparison; conflicts: Conflict[] } {
  const comparison = compareIgnoring(ctx, before, after);
  const changed = comparison.modified.union(comparison.added);
  const conflicts: Conflict[] = [];
  const out: Managers = new Map();
  for (const [key, versioned] of managers) {
    if (key === writer) {
      if (!versioned.set.isEmpty()) out.set(key, versioned);
      continue;
    }
    const taken = versioned.set.intersection(changed);
    for (const path of taken.paths()) conflicts.push({ manager: key, path });
    const set = versioned.set.difference(taken).difference(comparison.removed);
    if (!set.isEmpty()) out.set(key, { ...versioned, set });
  }
  return { managers: out, comparison, conflicts };
}

/**
 * A non-apply write from `live` (undefined on create) to `next`: the other managers after it, and the
 * fields the write itself now owns (empty when it changed nothing).
 */
export function recordUpdate(
  ctx: UpdaterContext,
  live: unknown,
  next: unknown,
  managers: Managers,
): { managers: Managers; owned: FieldSet } {
  const result = takeChanges(ctx, live ?? {}, next, reconciled(ctx, managers), undefined);
  const { added, modified, removed } = result.comparison;
  return { managers: result.managers, owned: modified.union(added).difference(removed) };
}

function named(ctx: UpdaterContext, set: FieldSet): FieldSet {
  return withNamedFieldsAsMembers(ctx.schema, ctx.type, set);
}

/**
 * `merged` without what `manager` applied last time (`lastSet`) and no longer applies, keeping whatever
 * another manager (or the new configuration) still owns.
 */
function prune(ctx: UpdaterContext, merged: unknown, managers: Managers, lastSet: FieldSet | undefined): unknown {
  if (lastSet === undefined || lastSet.isEmpty()) return merged;
  const { schema, type } = ctx;
  const mergedSet = named(ctx, fieldSetOf(schema, type, merged));
  const firstCut = removeItems(schema, type, merged, named(ctx, lastSet)) ?? {};
  let owned = new FieldSet();
  for (const versioned of managers.values()) owned = owned.union(versioned.set);
  const unowned = mergedSet.difference(named(ctx, fieldSetOf(schema, type, firstCut)).union(named(ctx, owned)));
  const ownedKept = removeItems(schema, type, merged, unowned) ?? {};
  // Only what the manager itself applied before goes; fields emptied on the way but never its own stay.
  const gone = mergedSet.difference(named(ctx, fieldSetOf(schema, type, ownedKept))).intersection(named(ctx, lastSet));
  return removeItems(schema, type, merged, gone) ?? {};
}

export type ApplyOutcome =
  /** `object` is undefined when the apply changes nothing. */
  { readonly object: unknown; readonly managers: Managers } | { readonly conflicts: readonly Conflict[] };

/** An apply of `config` (whose field set is `configSet`) by the manager `manager` onto `live`. */
export function recordApply(
  ctx: UpdaterContext,
  live: unknown,
  config: unknown,
  configSet: FieldSet,
  managers: Managers,
  manager: string,
  force: boolean,
): ApplyOutcome {
  const current = reconciled(ctx, managers);
  const lastSet = current.get(manager)?.set;
  current.set(manager, { set: configSet.recursiveDifference(ctx.ignored), apiVersion: ctx.apiVersion, applied: true });
  const merged = mergeObjects(ctx.schema, ctx.type, live, config);
  const pruned = prune(ctx, merged, current, lastSet);
  const result = takeChanges(ctx, live, pruned, current, manager);
  if (!force && result.conflicts.length > 0) return { conflicts: result.conflicts };
  return { object: valuesEqual(live, pruned) ? undefined : pruned, managers: result.managers };
}
