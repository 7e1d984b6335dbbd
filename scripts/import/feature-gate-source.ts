// Reads Kubernetes' feature gate declarations from its Go source: the `Name featuregate.Feature = "Name"`
// constants and the versioned spec maps (`Name: { {Version: version.MustParse("1.33"), Default: true,
// PreRelease: featuregate.Beta}, … }`), and picks each gate's spec at one Kubernetes version. Only facts
// (names, versions, defaults, stages, locks) are read, never the comments.

export type Stage = "ALPHA" | "BETA" | "GA" | "DEPRECATED" | "PREALPHA";

export interface GateSpec {
  name: string;
  default: boolean;
  stage: Stage;
  lockToDefault: boolean;
  /** The gates that must be on for this one to be on (kube's feature gate dependencies); omitted when none. */
  dependsOn?: string[];
}

interface VersionedSpec {
  version: [number, number];
  default: boolean;
  stage: Stage;
  lockToDefault: boolean;
}

const stages: Record<string, Stage> = {
  Alpha: "ALPHA",
  Beta: "BETA",
  GA: "GA",
  Deprecated: "DEPRECATED",
  PreAlpha: "PREALPHA",
};

/** `Ident (featuregate.)Feature = "Value"` constants (or untyped ones in the same block), by identifier. */
export function featureConstants(source: string): Map<string, string> {
  const constants = new Map<string, string>();
  for (const m of source.matchAll(
    /^\s*(\w+)\s+(?:(?:featuregate\.)?Feature\s*)?=\s*(?:featuregate\.Feature\()?"([^"]+)"/gm,
  )) {
    constants.set(m[1] as string, m[2] as string);
  }
  return constants;
}

function parseSpec(line: string): VersionedSpec | undefined {
  const version = /Version:\s*version\.(?:MustParse\("(\d+)\.(\d+)"\)|MajorMinor\((\d+), (\d+)\))/.exec(line);
  const def = /Default:\s*(true|false)/.exec(line);
  const stage = /PreRelease:\s*(?:featuregate\.)?(\w+)/.exec(line);
  if (!version || !def || !stage) return undefined;
  const known = stages[stage[1] as string];
  if (known === undefined) throw new Error(`unknown PreRelease ${stage[1]} in: ${line.trim()}`);
  return {
    version: [Number(version[1] ?? version[3]), Number(version[2] ?? version[4])],
    default: def[1] === "true",
    stage: known,
    lockToDefault: /LockToDefault:\s*true/.test(line),
  };
}

/**
 * The versioned specs of every gate a source file declares, keyed by the gate's identifier as written
 * (`Name` or `pkg.Name`).
 */
function versionedSpecs(source: string): Map<string, VersionedSpec[]> {
  const gates = new Map<string, VersionedSpec[]>();
  let current: VersionedSpec[] | undefined;
  for (const line of source.split("\n")) {
    // The special gates (AllAlpha, AllBeta) are declared on one line: `allAlphaGate: {{Default: …}},`.
    const oneLine = /^\s*(\w+):\s*\{(\{.*\})\},?\s*$/.exec(line);
    const single = oneLine ? parseSpec(oneLine[2] as string) : undefined;
    if (oneLine && single) {
      gates.set(oneLine[1] as string, [single]);
      current = undefined;
      continue;
    }
    const key = /^\s*((?:\w+\.)?\w+):\s*\{\s*$/.exec(line);
    if (key) {
      current = [];
      gates.set(key[1] as string, current);
      continue;
    }
    if (current === undefined) continue;
    const spec = parseSpec(line);
    if (spec) current.push(spec);
    else if (/^\s*\},?\s*$/.test(line)) current = undefined;
  }
  for (const [key, specs] of gates) if (specs.length === 0) gates.delete(key);
  return gates;
}

/** A Go feature reference as a dependency list writes it: `Name`, `pkg.Name`, `featuregate.Feature(pkg.Name)`. */
function featureIdent(reference: string): string {
  const inner = /^featuregate\.Feature\((.+)\)$/.exec(reference.trim())?.[1] ?? reference.trim();
  return inner.includes(".") ? inner.slice(inner.indexOf(".") + 1) : inner;
}

/**
 * The dependency maps the sources declare (`var …Dependencies = map[featuregate.Feature][]featuregate.Feature{
 * Name: {Dep, pkg.Dep}, … }`), keyed by the gate's identifier, each with its dependencies' identifiers.
 */
function dependencyLists(source: string): Map<string, string[]> {
  const lists = new Map<string, string[]>();
  let inMap = false;
  for (const line of source.split("\n")) {
    if (/^var \w+Dependencies = map\[featuregate\.Feature\]\[\]featuregate\.Feature\{\s*$/.test(line)) {
      inMap = true;
      continue;
    }
    if (!inMap) continue;
    if (/^\}/.test(line)) {
      inMap = false;
      continue;
    }
    const entry = /^\s*((?:\w+\.)?\w+):\s*\{([^}]*)\},/.exec(line);
    if (!entry) continue;
    const deps = (entry[2] as string)
      .split(",")
      .map((d) => d.trim())
      .filter((d) => d !== "")
      .map(featureIdent);
    lists.set(featureIdent(entry[1] as string), deps);
  }
  return lists;
}

function atOrBefore(spec: VersionedSpec, [major, minor]: [number, number]): boolean {
  return spec.version[0] < major || (spec.version[0] === major && spec.version[1] <= minor);
}

/**
 * Every gate the sources declare with its spec at `version` (`"1.36"`): the last spec not newer than it.
 * Gates not yet introduced then are left out; a gate declared in several files keeps the first file's specs.
 */
export function gatesAt(sources: readonly string[], version: string): GateSpec[] {
  const [major, minor] = version.split(".").map(Number) as [number, number];
  const constants = new Map<string, string>();
  for (const source of sources) for (const [k, v] of featureConstants(source)) constants.set(k, v);
  const gates = new Map<string, GateSpec>();
  const dependencies = new Map<string, string[]>();
  for (const source of sources) {
    for (const [ident, deps] of dependencyLists(source)) {
      const name = constants.get(ident);
      if (name === undefined) throw new Error(`no Feature constant for ${ident}`);
      dependencies.set(
        name,
        deps.map((dep) => {
          const depName = constants.get(dep);
          if (depName === undefined) throw new Error(`no Feature constant for ${dep}`);
          return depName;
        }),
      );
    }
  }
  for (const source of sources) {
    for (const [key, specs] of versionedSpecs(source)) {
      const ident = key.includes(".") ? key.slice(key.indexOf(".") + 1) : key;
      const name = constants.get(ident);
      if (name === undefined) throw new Error(`no Feature constant for ${key}`);
      if (gates.has(name)) continue;
      const applies = specs.filter((s) => atOrBefore(s, [major, minor]));
      const spec = applies[applies.length - 1];
      if (spec === undefined) continue;
      const dependsOn = dependencies.get(name) ?? [];
      gates.set(name, {
        name,
        default: spec.default,
        stage: spec.stage,
        lockToDefault: spec.lockToDefault,
        ...(dependsOn.length === 0 ? {} : { dependsOn }),
      });
    }
  }
  // kube refuses dependencies on gates it does not have.
  for (const gate of gates.values()) {
    for (const dep of gate.dependsOn ?? []) {
      if (!gates.has(dep)) throw new Error(`${gate.name} depends on unknown feature gate ${dep}`);
    }
  }
  return [...gates.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
