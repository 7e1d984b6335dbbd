// `--admission-control-config-file`: an AdmissionConfiguration (apiserver.config.k8s.io/v1 or v1alpha1, or
// the older apiserver.k8s.io/v1alpha1) naming each plugin's configuration by `path` (relative to the file's
// own directory) or embedding it as `configuration`. As kube-apiserver reads it, a file that is not an
// AdmissionConfiguration is still taken when it is one of the two legacy plugin files (ImagePolicyWebhook's
// `imagePolicy`, PodNodeSelector's `podNodeSelectorPluginConfig`): it then configures that plugin itself.
import { readFileSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";
import { yamlToJson } from "../authn/jwt/config-decoder.js";
import type { PluginConfig } from "./plugin-context.js";

const admissionConfigurationVersions = new Set([
  "apiserver.config.k8s.io/v1",
  "apiserver.config.k8s.io/v1alpha1",
  "apiserver.k8s.io/v1alpha1",
]);

/** The plugins that read their configuration from a file of their own before AdmissionConfiguration existed. */
const legacyPlugins: Readonly<Record<string, string>> = {
  imagePolicy: "ImagePolicyWebhook",
  podNodeSelectorPluginConfig: "PodNodeSelector",
};

/** Each configured plugin's configuration, by plugin name. */
export type AdmissionConfiguration = ReadonlyMap<string, PluginConfig>;

export const emptyAdmissionConfiguration: AdmissionConfiguration = new Map();

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function pluginEntries(value: Record<string, unknown>, path: string): Map<string, PluginConfig> {
  const unknown = Object.keys(value).filter((key) => !["apiVersion", "kind", "plugins"].includes(key));
  if (unknown.length > 0) {
    throw new Error(`strict decoding error: ${unknown.map((key) => `unknown field "${key}"`).join(", ")}`);
  }
  const plugins = value.plugins ?? [];
  if (!Array.isArray(plugins)) {
    throw new Error(
      "json: cannot unmarshal object into Go struct field AdmissionConfiguration.plugins of type []v1.AdmissionPluginConfiguration",
    );
  }
  const configs = new Map<string, PluginConfig>();
  const baseDir = dirname(path);
  plugins.forEach((entry: unknown, i) => {
    if (!isObject(entry)) throw new Error(`plugins[${i}]: not an AdmissionPluginConfiguration`);
    const extra = Object.keys(entry).filter((key) => !["name", "path", "configuration"].includes(key));
    if (extra.length > 0) {
      throw new Error(
        `strict decoding error: ${extra.map((key) => `unknown field "plugins[${i}].${key}"`).join(", ")}`,
      );
    }
    const name = typeof entry.name === "string" ? entry.name : "";
    // kube takes the first entry for a plugin.
    if (configs.has(name)) return;
    if (entry.configuration !== undefined && entry.configuration !== null) {
      configs.set(name, { text: JSON.stringify(entry.configuration), source: path });
    } else if (typeof entry.path === "string" && entry.path !== "") {
      const file = isAbsolute(entry.path) ? entry.path : resolve(baseDir, entry.path);
      let text: string;
      try {
        text = readFileSync(file, "utf8");
      } catch (error) {
        throw new Error(`couldn't open admission plugin configuration ${file}: ${(error as Error).message}`);
      }
      configs.set(name, { text, source: file });
    }
  });
  return configs;
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
    const value = yamlToJson(text);
    if (!isObject(value)) throw new Error("couldn't get version/kind; json parse error: not an object");
    const apiVersion = typeof value.apiVersion === "string" ? value.apiVersion : "";
    const kind = typeof value.kind === "string" ? value.kind : "";
    if (kind === "AdmissionConfiguration" && admissionConfigurationVersions.has(apiVersion)) {
      return pluginEntries(value, path);
    }
    const legacy = Object.keys(legacyPlugins).find((key) => key in value);
    if (legacy !== undefined) return new Map([[legacyPlugins[legacy] as string, { text, source: path }]]);
    if (apiVersion === "") throw new Error(`Object 'apiVersion' is missing in '${JSON.stringify(value)}'`);
    if (kind === "") throw new Error(`Object 'Kind' is missing in '${JSON.stringify(value)}'`);
    throw new Error(`no kind "${kind}" is registered for version "${apiVersion}"`);
  } catch (error) {
    throw new Error(`failed to read plugin config: ${(error as Error).message}`);
  }
}
