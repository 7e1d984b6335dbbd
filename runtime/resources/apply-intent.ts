// An apply configuration as kube reads it: YAML or JSON into a plain map, and only applying it reads it into
// the kind's types. Unknown fields are pruned and reported as field validation asks; a body the decoder
// refuses is answered in the words of whichever of kube's steps would refuse it first.
import { checkConfiguration } from "../apply/field-manager.js";
import { type GroupVersionKind, jsonKind } from "../codecs/decode-errors.js";
import { decodeObject } from "../codecs/decode-object.js";
import type { FieldValidation } from "../codecs/field-validation.js";
import { parseYaml } from "../codecs/yaml-body.js";
import { badRequest } from "../errors/status-error.js";
import { isJsonObject } from "../object/json-object.js";
import type { KubeObject } from "../object/kube-object.js";
import type { CustomKind } from "../registry/served-kind.js";
import { managedSchemaOf } from "./field-ownership.js";

/** The configuration as sent; its version, kind and managedFields are the field manager's to check. */
export function readIntent(
  body: Buffer,
  kind: GroupVersionKind & { custom?: CustomKind },
  level: FieldValidation,
): { config: KubeObject; warnings: string[] } {
  try {
    const decoded = decodeObject("application/yaml", body, level, kind, kind.custom);
    return { config: decoded.object as KubeObject, warnings: decoded.warnings };
  } catch (error) {
    throw intentRefusal(body, kind, level, error);
  }
}

/**
 * kube's answer to a configuration the decoder refused (`error`): a body that is no YAML mapping is refused
 * as kube's map decoding words it, and a value of the wrong type as the field manager words it.
 */
function intentRefusal(
  body: Buffer,
  kind: GroupVersionKind & { custom?: CustomKind },
  level: FieldValidation,
  error: unknown,
): unknown {
  const parsed = parseYaml(body);
  if ("error" in parsed) return badRequest(`error decoding YAML: error converting YAML to JSON: ${parsed.error}`);
  const { value } = parsed;
  if (value !== null && !isJsonObject(value)) {
    return badRequest(
      `error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${jsonKind(value)} into Go value of type map[string]interface {}`,
    );
  }
  if (value !== null) checkConfiguration(managedSchemaOf(kind), value as KubeObject);
  if (level === "Strict" && parsed.yamlDuplicates.length > 0) {
    return badRequest(
      `error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n  ${parsed.yamlDuplicates.join("\n  ")}`,
    );
  }
  return error;
}
