// The two things the write path asks of server-side apply, as kube-apiserver's field manager does them.
// Every non-apply write (create, update, merge/JSON/strategic patch) records what it changed under its
// manager with operation Update; an apply merges a configuration into the live object, owning exactly
// what the configuration names. Both return the object with metadata.managedFields recomputed and leave
// their inputs unchanged.
//
// Around the core (./updater.ts) sit the same steps as kube's chain of managers: managedFields read from
// the request or the live object, `[{}]` stopping the tracking, objects whose fields are not tracked left
// so on update, a "before-first-apply" manager owning an untracked object's fields when it is first
// applied, identity and type metadata never owned, update managers capped at ten (the oldest merged into
// "ancient-changes"), the time of an entry moved only when its manager changed something, and kubectl's
// hand-over from client-side apply.

import { containerBeyondDepth } from "../codecs/json-tree.js";
import { maxObjectDepth, storedObjectTooDeep } from "../codecs/object-depth.js";
import { badRequest, StatusError } from "../errors/status-error.js";
import { isJsonObject } from "../object/json-object.js";
import type { KubeObject } from "../object/kube-object.js";
import { compareGoStrings } from "../selection/go-strings.js";
import { FieldSet } from "./fieldpath/field-set.js";
import { fieldElement } from "./fieldpath/path-element.js";
import { kubectlManager, lastAppliedFields, syncLastApplied } from "./last-applied.js";
import {
  cloneManagedState,
  decodeManagedFields,
  emptyManagedState,
  encodeManagedFields,
  isResetManagedFields,
  type ManagedState,
  type Managers,
  managerKey,
  type Operation,
} from "./managed-fields.js";
import { applyConflictError } from "./merge/conflicts.js";
import { type Conflict, recordApply, recordUpdate, type UpdaterContext } from "./merge/updater.js";
import { type ManagedSchema, rootType, type SchemaType } from "./typed/managed-schema.js";
import { fieldSetOf } from "./typed/to-field-set.js";
import { type TypedProblem, typedProblemsText } from "./typed/typed-problem.js";

export type { ManagedSchema } from "./typed/managed-schema.js";
export { schemaForKind } from "./typed/managed-schema.js";

export interface FieldManagerContext {
  /** fieldManager query parameter, or the User-Agent prefix; "unknown" when empty. */
  manager: string;
  /** The request's group/version: "apps/v1", "v1". */
  apiVersion: string;
  /** "status", "scale"; undefined for the main resource. */
  subresource?: string;
  /** RFC 3339 seconds: "2026-11-21T10:00:00Z". */
  time: string;
  /** Top-level field paths the endpoint's strategy resets (kube's GetResetFields); no write owns them. */
  resetPaths?: readonly (readonly string[])[];
  /** The kind served at the endpoint; when given, an applied configuration of another kind is refused. */
  kind?: string;
}

export interface ApplyContext extends FieldManagerContext {
  force: boolean;
}

/** Fields no manager ever owns: type metadata and the identity and bookkeeping parts of metadata. */
const neverOwned = FieldSet.of(
  ...[
    ["apiVersion"],
    ["kind"],
    ["metadata"],
    ["metadata", "name"],
    ["metadata", "namespace"],
    ["metadata", "creationTimestamp"],
    ["metadata", "selfLink"],
    ["metadata", "uid"],
    ["metadata", "clusterName"],
    ["metadata", "generation"],
    ["metadata", "managedFields"],
    ["metadata", "resourceVersion"],
  ].map((path) => path.map(fieldElement)),
);

const maxUpdateManagers = 10;
const ancientChangesManager = "ancient-changes";
const beforeFirstApplyManager = "before-first-apply";

function metadataOf(obj: unknown): Record<string, unknown> | undefined {
  const metadata = isJsonObject(obj) ? obj.metadata : undefined;
  return isJsonObject(metadata) ? metadata : undefined;
}

/** A shallow copy without metadata.managedFields, for comparing and merging. */
function withoutManagedFields(obj: KubeObject): KubeObject {
  const metadata = metadataOf(obj);
  if (metadata === undefined || !Object.hasOwn(metadata, "managedFields")) return obj;
  const { managedFields: _, ...rest } = metadata;
  return { ...obj, metadata: rest };
}

/** A deep copy of `obj` carrying `state` as its managedFields (none when the state has no manager). */
function withManagedFields(obj: KubeObject, state: ManagedState): KubeObject {
  const out = structuredClone(obj);
  const entries = encodeManagedFields(state);
  const metadata = metadataOf(out);
  if (entries === undefined) {
    if (metadata !== undefined) delete metadata.managedFields;
  } else if (metadata === undefined) {
    out.metadata = { managedFields: entries };
  } else {
    metadata.managedFields = entries;
  }
  return out;
}

/**
 * Refuses objects nested deeper than kapi stores, as kube's storage refuses what it cannot read back:
 * checked before the walks here recurse into them.
 */
function refuseTooDeep(...objects: unknown[]): void {
  for (const obj of objects) {
    const bracket = containerBeyondDepth(obj, maxObjectDepth);
    if (bracket !== undefined) throw storedObjectTooDeep(bracket);
  }
}

/** The written object's managedFields, nested three levels down, must keep it within the same depth. */
function refuseDeepManagedFields(obj: KubeObject): KubeObject {
  const bracket = containerBeyondDepth(metadataOf(obj)?.managedFields, maxObjectDepth - 2);
  if (bracket !== undefined) throw storedObjectTooDeep(bracket);
  return obj;
}

function updaterContext(schema: ManagedSchema, ctx: FieldManagerContext): UpdaterContext {
  return {
    schema,
    type: rootType(schema),
    apiVersion: ctx.apiVersion,
    ignored: FieldSet.of(...(ctx.resetPaths ?? []).map((path) => path.map(fieldElement))),
  };
}

function keyOf(manager: string, operation: Operation, ctx: FieldManagerContext): string {
  return managerKey({
    manager: manager === "" ? "unknown" : manager,
    operation,
    apiVersion: ctx.apiVersion,
    ...(ctx.subresource !== undefined && ctx.subresource !== "" ? { subresource: ctx.subresource } : {}),
  });
}

function seconds(time: string | undefined): number {
  const ms = time === undefined ? Number.NaN : Date.parse(time);
  return Number.isNaN(ms) ? 0 : Math.floor(ms / 1000);
}

/** Merges the oldest update managers into one "ancient-changes" manager per version, down to ten. */
function capUpdateManagers(state: ManagedState): void {
  const { managers, times } = state;
  const updaters = [...managers].filter(([, v]) => !v.applied).map(([key]) => key);
  if (updaters.length <= maxUpdateManagers) return;
  updaters.sort((a, b) => seconds(times.get(a)) - seconds(times.get(b)) || compareGoStrings(a, b));
  const firstOfVersion = new Map<string, string>();
  let count = updaters.length;
  for (const key of updaters) {
    if (count <= maxUpdateManagers) break;
    const versioned = managers.get(key);
    if (versioned === undefined) continue;
    const bucket = managerKey({
      manager: ancientChangesManager,
      operation: "Update",
      apiVersion: versioned.apiVersion,
    });
    const first = firstOfVersion.get(versioned.apiVersion);
    if (first === undefined || key === bucket) {
      firstOfVersion.set(versioned.apiVersion, key);
      continue;
    }
    const firstSet = managers.get(first);
    if (!managers.has(bucket) && firstSet !== undefined) {
      managers.delete(first);
      managers.set(bucket, firstSet);
    }
    const into = managers.get(bucket)?.set ?? new FieldSet();
    managers.set(bucket, { ...versioned, set: versioned.set.union(into) });
    managers.delete(key);
    count--;
    const time = times.get(key);
    if (time === undefined) times.delete(bucket);
    else times.set(bucket, time);
  }
}

/**
 * An Update by the manager with identifier `key` from `live` to `next` (neither with managedFields): other
 * managers lose what it changed, and it owns what it changed on top of what it owned before.
 */
function recordUpdateBy(
  uctx: UpdaterContext,
  state: ManagedState,
  live: KubeObject | undefined,
  next: KubeObject,
  key: string,
  time: string,
): ManagedState {
  const { managers, owned } = recordUpdate(uctx, live, next, state.managers);
  const out: ManagedState = { managers, times: new Map(state.times) };
  const mine = owned.difference(neverOwned);
  if (!mine.isEmpty()) {
    const previous = managers.get(key)?.set;
    managers.set(key, {
      set: previous === undefined ? mine : mine.union(previous),
      apiVersion: uctx.apiVersion,
      applied: false,
    });
    out.times.set(key, time);
  }
  capUpdateManagers(out);
  return out;
}

function decodeOrEmpty(entries: unknown): ManagedState | undefined {
  try {
    return decodeManagedFields(entries);
  } catch {
    return undefined;
  }
}

/**
 * The managers before an update: a subresource write always starts from the live object's; otherwise the
 * request's own managedFields when it carries usable ones (so clients can edit them), else the live's.
 */
function managersBeforeUpdate(
  live: KubeObject | undefined,
  next: KubeObject,
  subresource: string | undefined,
): ManagedState {
  const liveEntries = metadataOf(live)?.managedFields;
  if (subresource !== undefined && subresource !== "") return decodeOrEmpty(liveEntries) ?? emptyManagedState();
  const requested = metadataOf(next)?.managedFields;
  if (isResetManagedFields(requested)) return emptyManagedState();
  const fromRequest = decodeOrEmpty(requested);
  if (fromRequest !== undefined && fromRequest.managers.size > 0) return fromRequest;
  return decodeOrEmpty(liveEntries) ?? emptyManagedState();
}

/**
 * A non-apply write (create when `live` is undefined, update, merge/JSON/strategic patch): `next` with its
 * managedFields recomputed, the writer recorded under operation Update.
 */
export function updateManagedFields(
  schema: ManagedSchema,
  live: KubeObject | undefined,
  next: KubeObject,
  ctx: FieldManagerContext,
): KubeObject {
  refuseTooDeep(next, live);
  const state = managersBeforeUpdate(live, next, ctx.subresource);
  const isCreate = live === undefined || typeof metadataOf(live)?.uid !== "string" || metadataOf(live)?.uid === "";
  // An object whose fields are not tracked stays so until it is applied to, unless this write resets them:
  // then what else it changes is its own (the specification's point 11).
  const reset = !ctx.subresource && isResetManagedFields(metadataOf(next)?.managedFields);
  if (state.managers.size === 0 && !isCreate && !reset) return withManagedFields(next, state);
  const liveObj = live === undefined ? undefined : withoutManagedFields(live);
  let out: KubeObject;
  try {
    const after = recordUpdateBy(
      updaterContext(schema, ctx),
      state,
      liveObj,
      withoutManagedFields(next),
      keyOf(ctx.manager, "Update", ctx),
      ctx.time,
    );
    out = withManagedFields(next, after);
  } catch {
    // As kube's UpdateNoErrors: a write never fails over its bookkeeping; the live entries are kept.
    out = withManagedFields(next, decodeOrEmpty(metadataOf(live)?.managedFields) ?? emptyManagedState());
  }
  return refuseDeepManagedFields(out);
}

/** A failure kube reports as a plain error, which it answers with 500 and its own message. */
function serverFailure(message: string): StatusError {
  return new StatusError(500, "InternalError", message);
}

/** schema.ParseGroupVersion's group and version; empty for an unparsable apiVersion. */
function groupVersionOf(apiVersion: unknown): { group: string; version: string } {
  if (typeof apiVersion !== "string" || apiVersion === "") return { group: "", version: "" };
  const parts = apiVersion.split("/");
  if (parts.length === 1) return { group: "", version: apiVersion };
  if (parts.length === 2) return { group: parts[0] as string, version: parts[1] as string };
  return { group: "", version: "" };
}

/** GroupVersionKind.String(): `apps/v1, Kind=Deployment`, `/v1, Kind=Pod`. */
function gvkText(obj: KubeObject): string {
  const { group, version } = groupVersionOf(obj.apiVersion);
  return `${group}/${version}, Kind=${typeof obj.kind === "string" ? obj.kind : ""}`;
}

/** GroupVersion.String(): `apps/v1`, `v1`. */
function gvText(apiVersion: unknown): string {
  const { group, version } = groupVersionOf(apiVersion);
  return group === "" ? version : `${group}/${version}`;
}

/** The fields a configuration sets; one that does not fit the schema is refused in kube's words. */
function configurationFields(schema: ManagedSchema, type: SchemaType, config: KubeObject): FieldSet {
  const problems: TypedProblem[] = [];
  const set = fieldSetOf(schema, type, config, problems);
  if (problems.length === 0) return set;
  const meta = metadataOf(config);
  const name = `${String(meta?.namespace ?? "")}/${String(meta?.name ?? "")}`;
  // kube answers this 500; the configuration is the client's, so kapi answers 400 with kube's words.
  throw badRequest(`failed to create typed patch object (${name}; ${gvkText(config)}): ${typedProblemsText(problems)}`);
}

/**
 * Refuses an applied configuration that does not fit the schema, as applying it would: kube reads the
 * configuration into the schema's types only there, so this is how it answers a value of the wrong type.
 */
export function checkConfiguration(schema: ManagedSchema, config: KubeObject): void {
  refuseTooDeep(config);
  configurationFields(schema, rootType(schema), config);
}

type AttemptResult = { object: KubeObject; state: ManagedState } | { conflicts: readonly Conflict[] };

function applyAttempt(
  schema: ManagedSchema,
  live: KubeObject | undefined,
  config: KubeObject,
  ctx: ApplyContext,
  initial: ManagedState,
  force: boolean,
): AttemptResult {
  const uctx = updaterContext(schema, ctx);
  const liveObj = live === undefined ? {} : withoutManagedFields(live);
  let state = cloneManagedState(initial);
  if (state.managers.size === 0) {
    // The fields of an object nobody tracked yet belong to a stand-in updater, so an apply can conflict.
    state = recordUpdateBy(uctx, state, {}, liveObj, keyOf(beforeFirstApplyManager, "Update", ctx), ctx.time);
  }
  if (gvText(config.apiVersion) !== ctx.apiVersion) {
    throw badRequest(
      `Incorrect version specified in apply patch. Specified patch version: ${gvText(config.apiVersion)}, expected: ${ctx.apiVersion}`,
    );
  }
  if (Array.isArray(metadataOf(config)?.managedFields)) throw badRequest("metadata.managedFields must be nil");
  const configSet = configurationFields(schema, uctx.type, config);
  const key = keyOf(ctx.manager, "Apply", ctx);
  const outcome = recordApply(uctx, liveObj, config, configSet, state.managers, key, force);
  if ("conflicts" in outcome) return outcome;
  const managers: Managers = outcome.managers;
  const applied = managers.get(key);
  if (applied !== undefined) {
    const set = applied.set.difference(neverOwned);
    if (set.isEmpty()) managers.delete(key);
    else managers.set(key, { ...applied, set });
  }
  const times = new Map(state.times);
  if (outcome.object !== undefined) times.set(key, ctx.time);
  const object = (outcome.object as KubeObject | undefined) ?? liveObj;
  return { object, state: { managers, times } };
}

/**
 * An apply (application/apply-patch+yaml) of `config` onto `live` (undefined: the object is created). The
 * merged object with its managedFields; throws a 409 listing the conflicts unless `force`, and a 400 for a
 * configuration of another kind or version or one carrying managedFields. Defaulting, admission and
 * validation of the result are the caller's, as after kube's field manager.
 */
export function applyConfiguration(
  schema: ManagedSchema,
  live: KubeObject | undefined,
  config: KubeObject,
  ctx: ApplyContext,
): KubeObject {
  refuseTooDeep(config, live);
  let initial: ManagedState;
  try {
    initial = decodeManagedFields(metadataOf(live)?.managedFields);
  } catch (e) {
    throw serverFailure(`failed to decode managed fields: ${(e as Error).message}`);
  }
  if (ctx.kind !== undefined && (config.apiVersion !== ctx.apiVersion || config.kind !== ctx.kind)) {
    throw badRequest(`invalid object type: ${gvkText(config)}`);
  }
  let result = applyAttempt(schema, live, config, ctx, initial, ctx.force);
  if ("conflicts" in result && ctx.manager === kubectlManager) {
    // Fields kubectl's client-side apply recorded may be taken over by kubectl's server-side apply.
    const allowed = lastAppliedFields(schema, rootType(schema), ctx.apiVersion, live);
    if (allowed !== undefined) {
      const remaining = result.conflicts.filter((c) => !allowed.has(c.path));
      result =
        remaining.length === 0 ? applyAttempt(schema, live, config, ctx, initial, true) : { conflicts: remaining };
    }
  }
  if ("conflicts" in result) throw applyConflictError(result.conflicts);
  const out = withManagedFields(result.object, result.state);
  if (ctx.manager === kubectlManager) syncLastApplied(out, config);
  return refuseDeepManagedFields(out);
}
