// An admission plugin's configuration text (YAML or JSON) read as kube reads it: through the plugin's own
// scheme (apiVersion and kind required and registered, with the texts kube's decoder gives), or, for the
// plugins kube feeds a YAML-or-JSON stream, as every document that parses.
import { parse, parseAllDocuments } from "yaml";
import { goJsonValueKind } from "../errors/go-json-kind.js";
import { isJsonObject, type JsonObject } from "../object/json-object.js";

export interface PluginConfigScheme {
  /** Where kube creates the scheme; its "no kind registered" error names it. */
  name: string;
  /** The kind registered for each apiVersion. */
  kinds: ReadonlyMap<string, string>;
}

/** The configuration document of `text` once its apiVersion and kind are registered in `scheme`. */
export function decodePluginConfig(text: string, scheme: PluginConfigScheme): JsonObject {
  let document: unknown;
  try {
    document = parse(text);
  } catch (error) {
    throw new Error(`couldn't get version/kind; json parse error: ${(error as Error).message}`);
  }
  if (!isJsonObject(document)) {
    throw new Error(
      `couldn't get version/kind; json parse error: json: cannot unmarshal ${goJsonValueKind(document)} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`,
    );
  }
  const kind = typeof document.kind === "string" ? document.kind : "";
  const apiVersion = typeof document.apiVersion === "string" ? document.apiVersion : "";
  if (kind === "") throw new Error(`Object 'Kind' is missing in '${text}'`);
  if (apiVersion === "") throw new Error(`Object 'apiVersion' is missing in '${text}'`);
  if (scheme.kinds.get(apiVersion) !== kind) {
    throw new Error(
      `no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)} in scheme ${JSON.stringify(scheme.name)}`,
    );
  }
  return document;
}

/** Every document of `text` (several YAML documents may follow one another); one that does not parse is skipped. */
export function parsePluginConfigDocuments(text: string | undefined): unknown[] {
  if (text === undefined) return [];
  return parseAllDocuments(text).flatMap((document) => {
    if ("errors" in document && document.errors.length > 0) return [];
    return [document.toJS() as unknown];
  });
}
