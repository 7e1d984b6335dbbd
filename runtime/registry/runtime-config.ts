// kube-apiserver's `--runtime-config`: which group/versions, and which resources of them, are served beyond (or
// instead of) those enabled by default. Keys are `<group>/<version>` (`v1` for the core group), a resource
// `<group>/<version>/<resource>`, or the selectors `api/all`, `api/ga`, `api/beta`, `api/alpha`. A resource's
// own key wins over its group/version's, which wins over a selector. Parsing checks the keys as kube-apiserver
// checks them at start, with its error texts.
import { servedGroupVersions } from "../../generated/discovery/served.js";
import { stabilityOf } from "./version-names.js";

export type RuntimeConfig = Readonly<Record<string, boolean>>;

const selectors = ["api/all", "api/ga", "api/beta", "api/alpha"];

/** The selector of a version's stability: `api/ga` for stable ones. */
function selectorOf(version: string): string {
  const stability = stabilityOf(version);
  return `api/${stability === "stable" ? "ga" : stability}`;
}

function ownKey(group: string, version: string): string[] {
  return group === "" ? [`api/${version}`, version] : [`${group}/${version}`];
}

/** Whether a group/version is on: its own key, then `api/<stability>`, then `api/all`, then its default. */
export function isEnabled(config: RuntimeConfig, gv: { group: string; version: string }, byDefault: boolean): boolean {
  for (const key of ownKey(gv.group, gv.version)) {
    const value = config[key];
    if (value !== undefined) return value;
  }
  return config[selectorOf(gv.version)] ?? config["api/all"] ?? byDefault;
}

/** Whether a resource is served: its own key, else whether its group/version is on (`versionOn`). */
export function isResourceEnabled(
  config: RuntimeConfig,
  gvr: { group: string; version: string; resource: string },
  versionOn: boolean,
): boolean {
  return gvr.group === "" ? versionOn : (config[`${gvr.group}/${gvr.version}/${gvr.resource}`] ?? versionOn);
}

/** Resource keys of a group/version turned on: kube then serves the version with just those resources. */
export function resourcesTurnedOn(config: RuntimeConfig, gv: { group: string; version: string }): string[] {
  const prefix = `${gv.group}/${gv.version}/`;
  return Object.entries(config)
    .filter(([key, on]) => on && gv.group !== "" && key.startsWith(prefix))
    .map(([key]) => key.slice(prefix.length));
}

/**
 * The core group's keys (`v1`, `api/v1`, and any `v1/<resource>` or `api/v1/<resource>`) all mean the whole core
 * version, as kube-apiserver rewrites them; `api/legacy` is dropped.
 */
function coreKey(key: string): string | undefined {
  if (key === "api/legacy") return undefined;
  return key === "v1" || key.startsWith("v1/") || key === "api/v1" || key.startsWith("api/v1/") ? "v1" : key;
}

/** strconv.ParseBool. */
function parseBool(text: string): boolean | undefined {
  if (["1", "t", "T", "TRUE", "true", "True"].includes(text)) return true;
  if (["0", "f", "F", "FALSE", "false", "False"].includes(text)) return false;
  return undefined;
}

const registered = new Map<string, Set<string>>();
for (const gv of servedGroupVersions) {
  let versions = registered.get(gv.group);
  if (versions === undefined) {
    versions = new Set();
    registered.set(gv.group, versions);
  }
  versions.add(gv.version);
}

/** The group and version a key names (`v1` is the core group's). */
function groupVersionOf(tokens: string[]): { group: string; version: string } {
  return tokens.length === 1
    ? { group: "", version: tokens[0] as string }
    : { group: tokens[0] ?? "", version: tokens[1] ?? "" };
}

/**
 * Parses `--runtime-config` (`a/b=true,c/d/e=false,f/g`; a bare key is an empty value, which means true) and
 * checks it as kube-apiserver does at start: selectors take exactly true or false, other keys name a known
 * group and version (and a lowercase resource), values are Go booleans.
 */
export function parseRuntimeConfig(text: string): Record<string, boolean> {
  const raw = new Map<string, string>();
  for (const entry of text.split(",")) {
    const item = entry.trim();
    if (item === "") continue;
    const eq = item.indexOf("=");
    const key = coreKey(eq < 0 ? item : item.slice(0, eq).trim());
    if (key !== undefined) raw.set(key, eq < 0 ? "" : item.slice(eq + 1).trim());
  }
  if (raw.size === 1 && raw.get("api/all") === "false") {
    throw new Error("invalid runtime-config with only api/all=false");
  }
  const unknown = new Set<string>();
  for (const key of raw.keys()) {
    if (selectors.includes(key) || key === "v1") continue;
    const tokens = key.split("/");
    if (tokens.length !== 2 && tokens.length !== 3) throw new Error(`runtime-config invalid key ${key}`);
    const { group, version } = groupVersionOf(tokens);
    if (!registered.has(group)) unknown.add(`${group}/${version}`);
  }
  if (unknown.size > 0) throw new Error(`unknown api groups ${[...unknown].sort().join(",")}`);

  const config: Record<string, boolean> = {};
  for (const [key, value] of raw) {
    if (selectors.includes(key)) {
      if (value !== "true" && value !== "false") throw new Error(`invalid value ${key}=${value}`);
      config[key] = value === "true";
      continue;
    }
    const tokens = key.split("/");
    const { group, version } = groupVersionOf(tokens);
    if (!registered.get(group)?.has(version)) {
      throw new Error(`group version ${group === "" ? version : `${group}/${version}`} that has not been registered`);
    }
    const on = value === "" ? true : parseBool(value);
    if (on === undefined) {
      throw new Error(`invalid value of ${key}: ${value}, err: strconv.ParseBool: parsing "${value}": invalid syntax`);
    }
    const resource = tokens[2];
    if (resource !== undefined && resource.toLowerCase() !== resource) {
      throw new Error(
        `invalid key ${key}: group/version/resource and resource is always lowercase plural, not "${resource}"`,
      );
    }
    config[key] = on;
  }
  return config;
}
