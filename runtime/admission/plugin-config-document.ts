// An admission plugin's configuration text (YAML or JSON) read as kube reads it: through the plugin's own
// scheme (runtime/config/: apiVersion and kind required and registered, values of the wrong type refused,
// unknown fields too where kube's codec is strict, with the texts kube's decoder gives), or, for the
// plugins kube feeds a YAML-or-JSON stream, as every document that parses.
import { parseAllDocuments } from "yaml";
import { ConfigError, decodeConfig } from "../config/config-document.js";
import type { JsonObject } from "../object/json-object.js";

export interface PluginConfigScheme {
  /** Where kube creates the scheme; its "no kind registered" error names it. */
  name: string;
  /** The kind registered for each apiVersion. */
  kinds: ReadonlyMap<string, string>;
  /** Whether kube's codec factory has strict decoding on (unknown and repeated fields refused). */
  strict?: boolean;
}

/** The configuration document of `text` once its apiVersion and kind are registered in `scheme`. */
export function decodePluginConfig(text: string, scheme: PluginConfigScheme): JsonObject {
  const kinds = [...scheme.kinds].map(([apiVersion, kind]) => `${apiVersion}/${kind}`);
  try {
    return decodeConfig(text, { scheme: { name: scheme.name, kinds }, strict: scheme.strict ?? false }).object;
  } catch (error) {
    // Plugins report configuration errors as plain errors; the text is kube's.
    if (error instanceof ConfigError) throw new Error(error.message);
    throw error;
  }
}

/** Every document of `text` (several YAML documents may follow one another); one that does not parse is skipped. */
export function parsePluginConfigDocuments(text: string | undefined): unknown[] {
  if (text === undefined) return [];
  return parseAllDocuments(text).flatMap((document) => {
    if ("errors" in document && document.errors.length > 0) return [];
    return [document.toJS() as unknown];
  });
}
