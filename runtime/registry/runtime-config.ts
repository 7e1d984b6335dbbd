// kube-apiserver's `--runtime-config`: which group/versions are served beyond (or instead of) those enabled by
// default. Keys are `<group>/<version>` (`v1` or `api/v1` for the core group) or the selectors `api/all`,
// `api/ga`, `api/beta`, `api/alpha`; values true or false. A group/version's own key wins over a selector.

import { stabilityOf, versionNamePattern } from "./version-names.js";

export type RuntimeConfig = Readonly<Record<string, boolean>>;

/** The selector of a version's stability: `api/ga` for stable ones. */
function selectorOf(version: string): string {
  const stability = stabilityOf(version);
  return `api/${stability === "stable" ? "ga" : stability}`;
}

function ownKey(group: string, version: string): string[] {
  return group === "" ? [`api/${version}`, version] : [`${group}/${version}`];
}

/** Whether a group/version is served: its own key, then `api/<stability>`, then `api/all`, then its default. */
export function isEnabled(config: RuntimeConfig, gv: { group: string; version: string }, byDefault: boolean): boolean {
  for (const key of ownKey(gv.group, gv.version)) {
    const value = config[key];
    if (value !== undefined) return value;
  }
  return config[selectorOf(gv.version)] ?? config["api/all"] ?? byDefault;
}

/** Parses `--runtime-config` (`a/b=true,c/d=false,e/f`; a bare key means true) as kube-apiserver does. */
export function parseRuntimeConfig(text: string): Record<string, boolean> {
  const config: Record<string, boolean> = {};
  for (const entry of text.split(",")) {
    const item = entry.trim();
    if (item === "") continue;
    const eq = item.indexOf("=");
    const key = eq < 0 ? item : item.slice(0, eq);
    const raw = eq < 0 ? "true" : item.slice(eq + 1);
    if (raw !== "true" && raw !== "false") {
      throw new Error(`invalid value of ${key}: ${raw}, err: strconv.ParseBool: parsing "${raw}": invalid syntax`);
    }
    if (!key.includes("/") && !versionNamePattern.test(key)) {
      throw new Error(`invalid key ${key}: expected <group>/<version>`);
    }
    config[key] = raw === "true";
  }
  return config;
}
