// kube-apiserver's feature gates: the v1.36 table (generated/feature-gates.ts) and what `--feature-gates`
// sets over it. Setting a gate is read as kube's component-base reads it: `Name=true|false` pairs, an
// optional `kube:` component prefix, AllAlpha/AllBeta switching every alpha/beta gate nobody set, locked
// gates refusing any value but their default, a gate on while one it depends on is off refused; unknown
// gates and GA or deprecated ones only warn.

import { type FeatureGateSpec, featureGateSpecs } from "../../generated/feature-gates.js";

const specs: ReadonlyMap<string, FeatureGateSpec> = new Map(featureGateSpecs.map((s) => [s.name, s]));

/** Which gates are on for one server. */
export class FeatureGates {
  private readonly enabledGates: ReadonlyMap<string, boolean>;

  /**
   * `overrides`: the gates set over the defaults. A gate kube does not have (the command line warns about
   * those and leaves them out), a locked one set away from its default, or a gate left on while a gate it
   * depends on is off, throws.
   */
  constructor(overrides: Readonly<Record<string, boolean>> = {}) {
    for (const [name, on] of Object.entries(overrides)) {
      const spec = specs.get(name);
      if (spec === undefined) throw new Error(`unrecognized feature gate: ${name}`);
      if (spec.lockToDefault && spec.default !== on) {
        throw new Error(`cannot set feature gate ${name} to ${on}, feature is locked to ${spec.default}`);
      }
    }
    const enabled = new Map(featureGateSpecs.map((s) => [s.name, s.default]));
    for (const [all, stage] of [
      ["AllAlpha", "ALPHA"],
      ["AllBeta", "BETA"],
    ] as const) {
      const value = overrides[all];
      if (value === undefined) continue;
      for (const spec of featureGateSpecs) {
        if (spec.stage === stage && !spec.lockToDefault && !(spec.name in overrides)) enabled.set(spec.name, value);
      }
    }
    for (const [name, value] of Object.entries(overrides)) if (specs.has(name)) enabled.set(name, value);
    const broken = featureGateSpecs
      .filter((spec) => enabled.get(spec.name) === true)
      .map((spec) => ({ name: spec.name, off: (spec.dependsOn ?? []).filter((dep) => enabled.get(dep) !== true) }))
      .filter((gate) => gate.off.length > 0)
      .map((gate) => `${gate.name} is enabled, but depends on features that are disabled: [${gate.off.join(" ")}]`);
    // Go's aggregated error: the one message, or all of them bracketed.
    if (broken.length === 1) throw new Error(broken[0]);
    if (broken.length > 1) throw new Error(`[${broken.join(", ")}]`);
    this.enabledGates = enabled;
  }

  /** Whether the gate is on; asking about a gate kube does not have is a bug. */
  enabled(name: string): boolean {
    const on = this.enabledGates.get(name);
    if (on === undefined) throw new Error(`feature gate ${name} is not a kube-apiserver v1.36 feature gate`);
    return on;
  }

  /** Every gate with its stage and whether it is on, for kubernetes_feature_enabled. */
  all(): { name: string; stage: FeatureGateSpec["stage"]; enabled: boolean }[] {
    return featureGateSpecs.map((s) => ({ name: s.name, stage: s.stage, enabled: this.enabled(s.name) }));
  }
}

export interface ParsedFeatureGates {
  /** The gates the flag sets, by name (unknown ones left out). */
  overrides: Record<string, boolean>;
  /** What kube logs as warnings: unknown gates, GA and deprecated gates set. */
  warnings: string[];
}

function parseBool(value: string): boolean | undefined {
  // Go's strconv.ParseBool.
  if (["1", "t", "T", "TRUE", "true", "True"].includes(value)) return true;
  if (["0", "f", "F", "FALSE", "false", "False"].includes(value)) return false;
  return undefined;
}

/**
 * Reads `--feature-gates` values (the flag may repeat) as kube-apiserver does; a value kube refuses throws
 * with kube's text (the first one, where kube joins several).
 */
export function parseFeatureGates(values: readonly string[]): ParsedFeatureGates {
  const set = new Map<string, boolean>();
  for (const value of values) {
    for (const pair of value.split(",")) {
      if (pair.length === 0) continue;
      let entry = pair;
      // kube's colon-separated multimap: `component:Name=value`, `kube` when no component is named.
      const colon = pair.indexOf(":");
      const equals = pair.indexOf("=");
      if (colon >= 0 && (equals < 0 || colon < equals)) {
        const component = pair.slice(0, colon).trim();
        if (component !== "kube") throw new Error(`component not registered: ${component}`);
        entry = pair.slice(colon + 1);
      }
      const at = entry.indexOf("=");
      const name = (at < 0 ? entry : entry.slice(0, at)).trim();
      if (at < 0) throw new Error(`missing bool value for ${name}`);
      const text = entry.slice(at + 1).trim();
      const on = parseBool(text);
      if (on === undefined) {
        throw new Error(`invalid value of ${name}=${text}, err: strconv.ParseBool: parsing "${text}": invalid syntax`);
      }
      set.set(name, on);
    }
  }
  const overrides: Record<string, boolean> = {};
  const warnings: string[] = [];
  for (const [name, on] of set) {
    const spec = specs.get(name);
    if (spec === undefined) {
      warnings.push(`unrecognized feature gate: ${name}`);
      continue;
    }
    if (spec.lockToDefault && spec.default !== on) {
      throw new Error(`cannot set feature gate ${name} to ${on}, feature is locked to ${spec.default}`);
    }
    overrides[name] = on;
    if (spec.stage === "DEPRECATED") {
      warnings.push(
        `Warning: setting deprecated feature gate. It will be removed in a future release. featureGate="${name}" value=${on}`,
      );
    } else if (spec.stage === "GA") {
      warnings.push(
        `Warning: setting GA feature gate. It will be removed in a future release. featureGate="${name}" value=${on}`,
      );
    }
  }
  // kube checks the dependencies once every value is read.
  new FeatureGates(overrides);
  return { overrides, warnings };
}
