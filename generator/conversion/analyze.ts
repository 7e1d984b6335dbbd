// Decides, for every kind present in several versions of a group, how each version converts to and from the hub:
// field by field where the shapes match, through a hand-written function where one is exported under the agreed name,
// and not at all where neither works (the missing hand-written functions are reported).
import type { SchemaNode } from "../schema/model.js";
import { groupDir, type SchemaSet } from "../schema/schema-set.js";
import type { HandWrittenLookup } from "./hand-written.js";
import { type MultiVersionKind, multiVersionKinds } from "./hubs.js";

/** How one value is carried from the source object to the target object. */
export type ValuePlan =
  | { kind: "assign" }
  | { kind: "clone" }
  | { kind: "object"; fn: string }
  | { kind: "list"; item: ValuePlan }
  | { kind: "map"; value: ValuePlan };

export type PropertyPlan = { name: string; plan: ValuePlan } | { name: string; apiVersion: string };

/** The conversion of one definition from one version to another. */
export interface DefinitionPair {
  /** `convert_<from>_<Definition>_To_<to>_<Definition>`: generated, or the hand-written function of that name. */
  fn: string;
  from: string;
  to: string;
  handWritten: boolean;
  properties: PropertyPlan[];
  /** Why a field-by-field body is impossible: a property absent or differently shaped in the target. */
  mismatches: string[];
  /** Nested definition conversions the field-by-field body calls. */
  deps: string[];
  convertible: boolean;
}

export interface KindPlan extends MultiVersionKind {
  /** from version → to version → function name, or null when not convertible. */
  pairs: Record<string, Record<string, string | null>>;
}

export interface GroupConversions {
  group: string;
  groupDir: string;
  /** Schema paths of the versions involved. */
  sources: string[];
  kinds: KindPlan[];
  /** Field-by-field functions to emit, sorted by name. */
  generated: DefinitionPair[];
  /** Hand-written functions the generated code calls, sorted. */
  handWritten: string[];
  /** Hand-written functions that would make the remaining pairs convertible, sorted by name. */
  missing: DefinitionPair[];
}

export function conversionName(name: string, from: string, to: string): string {
  return `convert_${from}_${name}_To_${to}_${name}`;
}

const copyPlan = (plan: ValuePlan): boolean => plan.kind === "assign" || plan.kind === "clone";

class GroupAnalyzer {
  readonly pairs = new Map<string, DefinitionPair>();
  private readonly handWritten: ReadonlySet<string>;

  constructor(
    private readonly set: SchemaSet,
    private readonly group: string,
    lookup: HandWrittenLookup,
    private readonly fileOf: (version: string) => string,
  ) {
    this.handWritten = lookup(groupDir(group));
  }

  pair(name: string, from: string, to: string): string {
    const fn = conversionName(name, from, to);
    if (this.pairs.has(fn)) return fn;
    const pair: DefinitionPair = {
      fn,
      from,
      to,
      handWritten: this.handWritten.has(fn),
      properties: [],
      mismatches: [],
      deps: [],
      convertible: true,
    };
    this.pairs.set(fn, pair);
    if (!pair.handWritten) this.fill(pair, name);
    return fn;
  }

  private fill(pair: DefinitionPair, name: string): void {
    const fromFile = this.fileOf(pair.from);
    const toFile = this.fileOf(pair.to);
    const src = this.set.definition({ fileId: fromFile, name });
    const dst = this.set.definition({ fileId: toFile, name });
    const isKind = [fromFile, toFile].every((id) => this.set.file(id).file.kinds?.some((k) => k.kind === name));
    for (const [prop, node] of Object.entries(src.properties ?? {})) {
      if (prop === "apiVersion" && isKind) {
        const apiVersion = this.group === "" ? pair.to : `${this.group}/${pair.to}`;
        pair.properties.push({ name: prop, apiVersion });
        continue;
      }
      const target = dst.properties?.[prop];
      const plan = target ? this.plan(node, target, pair) : `absent in ${pair.to}`;
      if (typeof plan === "string") pair.mismatches.push(`${prop}: ${plan}`);
      else pair.properties.push({ name: prop, plan });
    }
  }

  /** A plan, or why the two shapes differ. */
  private plan(a: SchemaNode, b: SchemaNode, pair: DefinitionPair): ValuePlan | string {
    const fromFile = this.fileOf(pair.from);
    const toFile = this.fileOf(pair.to);
    if (a.$ref !== undefined || b.$ref !== undefined) {
      if (a.$ref === undefined || b.$ref === undefined) return "changes type";
      const ra = this.set.resolveRef(fromFile, a.$ref);
      const rb = this.set.resolveRef(toFile, b.$ref);
      const da = this.set.definition(ra);
      const db = this.set.definition(rb);
      if (ra.fileId === rb.fileId && ra.name === rb.name) return isScalar(da) ? { kind: "assign" } : { kind: "clone" };
      if (ra.fileId !== fromFile || rb.fileId !== toFile || ra.name !== rb.name) {
        return `refers to ${ra.name} in ${pair.from} but ${rb.name} in ${pair.to}`;
      }
      if (da.properties === undefined || db.properties === undefined) return this.plan(da, db, pair);
      const fn = this.pair(ra.name, pair.from, pair.to);
      if (!pair.deps.includes(fn)) pair.deps.push(fn);
      return { kind: "object", fn };
    }
    if (a.type !== b.type) return `changes type from ${a.type ?? "any"} to ${b.type ?? "any"}`;
    if (Boolean(a["x-kubernetes-int-or-string"]) !== Boolean(b["x-kubernetes-int-or-string"])) return "changes type";
    if (a["x-kubernetes-int-or-string"] || isScalar(a)) return { kind: "assign" };
    if (a.type === "array") {
      if (!a.items || !b.items) return a.items || b.items ? "changes item type" : { kind: "clone" };
      const item = this.plan(a.items, b.items, pair);
      if (typeof item === "string") return `item ${item}`;
      return copyPlan(item) ? { kind: "clone" } : { kind: "list", item };
    }
    if (a.properties !== undefined || b.properties !== undefined) {
      const keysA = Object.keys(a.properties ?? {}).sort();
      const keysB = Object.keys(b.properties ?? {}).sort();
      if (keysA.join() !== keysB.join()) return "changes shape";
      for (const key of keysA) {
        const inner = this.plan(a.properties?.[key] ?? {}, b.properties?.[key] ?? {}, pair);
        if (typeof inner === "string" || !copyPlan(inner)) return "changes shape";
      }
      return { kind: "clone" };
    }
    const valuesA = typeof a.additionalProperties === "object" ? a.additionalProperties : undefined;
    const valuesB = typeof b.additionalProperties === "object" ? b.additionalProperties : undefined;
    if (valuesA && valuesB) {
      const value = this.plan(valuesA, valuesB, pair);
      if (typeof value === "string") return `map value ${value}`;
      return copyPlan(value) ? { kind: "clone" } : { kind: "map", value };
    }
    return valuesA || valuesB ? "changes shape" : { kind: "clone" };
  }
}

function isScalar(node: SchemaNode): boolean {
  return node.type === "string" || node.type === "integer" || node.type === "number" || node.type === "boolean";
}

/** A pair converts when hand-written, or when its own fields match and everything it calls converts. */
function settleConvertible(pairs: Map<string, DefinitionPair>): void {
  for (const pair of pairs.values()) pair.convertible = pair.handWritten || pair.mismatches.length === 0;
  let changed = true;
  while (changed) {
    changed = false;
    for (const pair of pairs.values()) {
      if (!pair.convertible || pair.handWritten) continue;
      if (pair.deps.some((fn) => pairs.get(fn)?.convertible === false)) {
        pair.convertible = false;
        changed = true;
      }
    }
  }
}

function reachable(pairs: Map<string, DefinitionPair>, roots: string[]): DefinitionPair[] {
  const seen = new Set<string>();
  const out: DefinitionPair[] = [];
  const visit = (fn: string): void => {
    const pair = pairs.get(fn);
    if (!pair || seen.has(fn)) return;
    seen.add(fn);
    out.push(pair);
    if (!pair.handWritten) for (const dep of pair.deps) visit(dep);
  };
  for (const root of roots) visit(root);
  return out.sort((a, b) => a.fn.localeCompare(b.fn));
}

export function analyzeConversions(set: SchemaSet, lookup: HandWrittenLookup): GroupConversions[] {
  const byGroup = new Map<string, MultiVersionKind[]>();
  for (const kind of multiVersionKinds(set)) byGroup.set(kind.group, [...(byGroup.get(kind.group) ?? []), kind]);
  const out: GroupConversions[] = [];
  for (const [group, kinds] of byGroup) {
    const dir = groupDir(group);
    const analyzer = new GroupAnalyzer(set, group, lookup, (version) => `${dir}/${version}`);
    const roots = kinds.map((kind) => {
      const spokes = kind.versions.filter((v) => v !== kind.hub);
      return {
        kind,
        fns: spokes.flatMap((v) => [
          { from: v, to: kind.hub, fn: analyzer.pair(kind.kind, v, kind.hub) },
          { from: kind.hub, to: v, fn: analyzer.pair(kind.kind, kind.hub, v) },
        ]),
      };
    });
    settleConvertible(analyzer.pairs);
    const isConvertible = (fn: string): boolean => analyzer.pairs.get(fn)?.convertible === true;
    const rootFns = roots.flatMap((r) => r.fns.map((f) => f.fn));
    const used = reachable(analyzer.pairs, rootFns.filter(isConvertible));
    const blocked = reachable(
      analyzer.pairs,
      rootFns.filter((fn) => !isConvertible(fn)),
    );
    const versions = new Set(kinds.flatMap((k) => k.versions));
    out.push({
      group,
      groupDir: dir,
      sources: [...versions].sort().map((v) => set.file(`${dir}/${v}`).path),
      kinds: roots.map(({ kind, fns }) => {
        const pairs: Record<string, Record<string, string | null>> = {};
        for (const version of kind.versions) pairs[version] = {};
        for (const { from, to, fn } of fns) {
          const row = pairs[from] ?? {};
          row[to] = isConvertible(fn) ? fn : null;
          pairs[from] = row;
        }
        return { ...kind, pairs };
      }),
      generated: used.filter((p) => !p.handWritten),
      handWritten: used.filter((p) => p.handWritten).map((p) => p.fn),
      missing: blocked.filter((p) => p.mismatches.length > 0),
    });
  }
  return out;
}
