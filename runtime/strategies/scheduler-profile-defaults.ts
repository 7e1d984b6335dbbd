// kube's setDefaults_KubeSchedulerProfile for profiles a file writes: the profile's plugins merged into the
// default plugins per extension point (kube's mergePluginSet), every plugin config's args defaulted by the
// plugin's name (`<Name>Args`), and defaulted args appended, in name order, for enabled plugins that have an
// args kind but no config. The default profile is the schema's own default, so it is declared once.
import { validation, validationKey } from "../../generated/validation.js";
import { asObject, listItems } from "../validation/walk.js";

type Json = Record<string, unknown>;

const group = "kubescheduler.config.k8s.io";
const version = "v1";

function argsKind(name: string): string | undefined {
  const kind = `${name}Args`;
  return validation[validationKey(group, version, kind)] === undefined ? undefined : kind;
}

/** The default profile as the schema defaults a configuration without profiles. */
function defaultProfile(): Json {
  const configuration: Json = {};
  validation[validationKey(group, version, "KubeSchedulerConfiguration")]?.default(configuration);
  return asObject(listItems(configuration.profiles)[0]) ?? {};
}

function pluginName(plugin: unknown): string {
  const name = asObject(plugin)?.name;
  return typeof name === "string" ? name : "";
}

function mergePluginSet(defaults: Json, custom: Json): Json {
  const disabled = [...listItems(custom.disabled), ...listItems(defaults.disabled)].map((p) => ({
    name: pluginName(p),
  }));
  const disabledNames = new Set(disabled.map((p) => p.name));
  const customEnabled = listItems(custom.enabled);
  const replaced = new Set<number>();
  const enabled: unknown[] = [];
  if (!disabledNames.has("*")) {
    for (const plugin of listItems(defaults.enabled)) {
      const name = pluginName(plugin);
      if (disabledNames.has(name)) continue;
      // A default plugin configured again keeps its place with the custom settings (the last one of a name).
      const at = customEnabled.findLastIndex((p) => pluginName(p) === name);
      if (at >= 0) replaced.add(at);
      enabled.push(at >= 0 ? customEnabled[at] : plugin);
    }
  }
  enabled.push(...customEnabled.filter((_, i) => !replaced.has(i)));
  return { ...(enabled.length > 0 ? { enabled } : {}), ...(disabled.length > 0 ? { disabled } : {}) };
}

function mergePlugins(defaults: Json, custom: Json | undefined): Json {
  if (custom === undefined) return structuredClone(defaults);
  const merged: Json = {};
  for (const point of new Set([...Object.keys(defaults), ...Object.keys(custom)])) {
    merged[point] = mergePluginSet(asObject(defaults[point]) ?? {}, asObject(custom[point]) ?? {});
  }
  return merged;
}

function defaultArgs(name: string, args: Json): void {
  const kind = argsKind(name);
  if (kind === undefined) return;
  args.apiVersion = `${group}/${version}`;
  args.kind = kind;
  validation[validationKey(group, version, kind)]?.default(args);
}

function enabledNames(plugins: Json): string[] {
  const names = new Set<string>();
  for (const set of Object.values(plugins)) {
    for (const plugin of listItems(asObject(set)?.enabled)) names.add(pluginName(plugin));
  }
  return [...names].sort();
}

/** Applies kube's profile defaulting to one profile of a KubeSchedulerConfiguration, in place. */
export function defaultSchedulerProfile(profile: Json): void {
  const base = defaultProfile();
  const plugins = mergePlugins(asObject(base.plugins) ?? {}, asObject(profile.plugins));
  profile.plugins = plugins;
  const configs = listItems(profile.pluginConfig).map((c) => asObject(c) ?? {});
  const configured = new Set(configs.map((c) => pluginName(c)));
  for (const config of configs) {
    const args = asObject(config.args);
    if (args !== undefined) defaultArgs(pluginName(config), args);
  }
  for (const name of enabledNames(plugins)) {
    if (configured.has(name) || argsKind(name) === undefined) continue;
    const args: Json = {};
    defaultArgs(name, args);
    configs.push({ name, args });
  }
  if (configs.length > 0) profile.pluginConfig = configs;
}
