// Converting an object between served versions of its group through the kind's hub (its storage version),
// dispatching through the generated conversion table.
import type { ConvertFn, JsonObject } from "./json-values.js";

export interface KindConversions {
  /** The version every other version converts to and from. */
  hub: string;
  /** from version → to version → function; null where the hand-written function it needs is missing. */
  pairs: Record<string, Record<string, ConvertFn | null>>;
}

/** Keyed by "group/Kind" (the core group is ""). */
export type ConversionTable = Record<string, KindConversions>;

/**
 * A conversion between kinds of two groups that share one storage (kube stores events.k8s.io Events as core
 * Events): from one apiVersion of the kind to one apiVersion of the other group.
 */
export interface CrossGroupConversion {
  kind: string;
  from: string;
  to: string;
  convert: ConvertFn;
}

export class ConversionError extends Error {}

function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf("/");
  return slash === -1
    ? { group: "", version: apiVersion }
    : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

function step(table: KindConversions, kind: string, from: string, to: string): ConvertFn {
  const fn = table.pairs[from]?.[to];
  if (!fn) throw new ConversionError(`converting (${from}.${kind}) to (${to}.${kind}): unknown conversion`);
  return fn;
}

/** Returns a copy of `obj` (which names its apiVersion and kind) in `toVersion` of the same group. */
export function convert(table: ConversionTable, obj: JsonObject, toVersion: string): JsonObject {
  const { apiVersion, kind } = obj;
  if (typeof apiVersion !== "string" || typeof kind !== "string") {
    throw new ConversionError("Object 'Kind' is missing in the object to convert");
  }
  const { group, version } = splitApiVersion(apiVersion);
  const target = group === "" ? toVersion : `${group}/${toVersion}`;
  if (version === toVersion) return structuredClone(obj);
  const conversions = table[`${group}/${kind}`];
  if (!conversions || !(toVersion in conversions.pairs)) {
    throw new ConversionError(`no kind "${kind}" is registered for version "${target}"`);
  }
  if (!(version in conversions.pairs)) {
    throw new ConversionError(`no kind "${kind}" is registered for version "${apiVersion}"`);
  }
  const { hub } = conversions;
  const atHub = version === hub ? obj : step(conversions, kind, version, hub)(obj);
  return toVersion === hub ? atHub : step(conversions, kind, hub, toVersion)(atHub);
}

/**
 * Returns a copy of `obj` in `toVersion` of `toGroup`: through the generated table within its group, and
 * through a cross-group conversion (and the tables on either side of it) when `toGroup` is another group.
 */
export function convertToGroup(
  table: ConversionTable,
  across: readonly CrossGroupConversion[],
  obj: JsonObject,
  toGroup: string,
  toVersion: string,
): JsonObject {
  const { apiVersion, kind } = obj;
  if (typeof apiVersion !== "string" || typeof kind !== "string") {
    throw new ConversionError("Object 'Kind' is missing in the object to convert");
  }
  const { group } = splitApiVersion(apiVersion);
  if (group === toGroup) return convert(table, obj, toVersion);
  const bridge = across.find(
    (c) => c.kind === kind && splitApiVersion(c.from).group === group && splitApiVersion(c.to).group === toGroup,
  );
  if (bridge === undefined) {
    const target = toGroup === "" ? toVersion : `${toGroup}/${toVersion}`;
    throw new ConversionError(`no kind "${kind}" is registered for version "${target}"`);
  }
  const atBridge = convert(table, obj, splitApiVersion(bridge.from).version);
  return convert(table, bridge.convert(atBridge), toVersion);
}
