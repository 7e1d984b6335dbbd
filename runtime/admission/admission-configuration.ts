// `--admission-control-config-file`: an AdmissionConfiguration (apiserver.config.k8s.io/v1, or the older
// apiserver.k8s.io/v1alpha1, decoded strictly through runtime/config/) naming each plugin's configuration by `path` (relative to the file's
// own directory) or embedding it as `configuration`. As kube-apiserver reads it, a file that is not an
// AdmissionConfiguration is still taken when it is one of the two legacy plugin files (ImagePolicyWebhook's
// `imagePolicy`, PodNodeSelector's `podNodeSelectorPluginConfig`): it then configures that plugin itself.
import { readFileSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";
import { yamlToJson } from "../authn/jwt/config-decoder.js";
import { apiserverConfigurationKinds } from "../config/apiserver-kinds.js";
import { ConfigError, type ConfigScheme, decodeConfig } from "../config/config-document.js";
import { asObject, listItems } from "../validation/walk.js";
import type { PluginConfig } from "./plugin-context.js";

/** The scheme kube-apiserver reads the file with: every kind of its apiserver configuration API. */
const admissionScheme: ConfigScheme = {
  name: "pkg/server/options/admission.go:51",
  kinds: apiserverConfigurationKinds,
};

/** Decoding errors after which kube still looks for a legacy plugin file: no version, no kind, not registered. */
const typeErrors = ["Object 'apiVersion' is missing", "Object 'Kind' is missing", "no kind "];

/** The plugins that read their configuration from a file of their own before AdmissionConfiguration existed. */
const legacyPlugins: Readonly<Record<string, string>> = {
  imagePolicy: "ImagePolicyWebhook",
  podNodeSelectorPluginConfig: "PodNodeSelector",
};

/** Each configured plugin's configuration, by plugin name. */
export type AdmissionConfiguration = ReadonlyMap<string, PluginConfig>;

export const emptyAdmissionConfiguration: AdmissionConfiguration = new Map();

function pluginEntries(value: Record<string, unknown>, path: string): Map<string, PluginConfig> {
  const configs = new Map<string, PluginConfig>();
  const baseDir = dirname(path);
  for (const entry of listItems(value.plugins)) {
    const plugin = asObject(entry) ?? {};
    const name = typeof plugin.name === "string" ? plugin.name : "";
    // kube takes the first entry for a plugin.
    if (configs.has(name)) continue;
    if (plugin.configuration !== undefined && plugin.configuration !== null) {
      configs.set(name, { text: JSON.stringify(plugin.configuration), source: path });
    } else if (typeof plugin.path === "string" && plugin.path !== "") {
      const file = isAbsolute(plugin.path) ? plugin.path : resolve(baseDir, plugin.path);
      let text: string;
      try {
        text = readFileSync(file, "utf8");
      } catch (error) {
        throw new Error(`couldn't open admission plugin configuration ${file}: ${(error as Error).message}`);
      }
      configs.set(name, { text, source: file });
    }
  }
  return configs;
}

function legacyPluginConfig(text: string, path: string): AdmissionConfiguration | undefined {
  let value: unknown;
  try {
    value = yamlToJson(text);
  } catch {
    return undefined;
  }
  const object = asObject(value);
  const legacy = object === undefined ? undefined : Object.keys(legacyPlugins).find((key) => key in object);
  return legacy === undefined ? undefined : new Map([[legacyPlugins[legacy] as string, { text, source: path }]]);
}

/** Reads the file; its errors are worded as kube-apiserver's startup errors ("failed to read plugin config: …"). */
export function readAdmissionConfiguration(path: string): AdmissionConfiguration {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file or directory" : `${error}`;
    throw new Error(
      `failed to read plugin config: unable to read admission control configuration from "${path}" [open ${path}: ${reason}]`,
    );
  }
  try {
    const { object, gvk } = decodeConfig(text, { scheme: admissionScheme });
    if (gvk.kind !== "AdmissionConfiguration") throw new Error(`unexpected type: *apiserver.${gvk.kind}`);
    return pluginEntries(object, path);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw new Error(`failed to read plugin config: ${(error as Error).message}`);
    const legacy = typeErrors.some((prefix) => error.message.startsWith(prefix))
      ? legacyPluginConfig(text, path)
      : undefined;
    if (legacy !== undefined) return legacy;
    throw new Error(`failed to read plugin config: ${error.message}`);
  }
}
