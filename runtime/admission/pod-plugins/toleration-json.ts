// Tolerations decoded as Go decodes a []v1.Toleration: a namespace annotation with encoding/json (field
// names matched regardless of case), a plugin configuration's list with apimachinery's case-sensitive
// decoder. The first type mismatch fails with Go's text, naming the field as Go does.
import { goJsonValueKind } from "../../errors/go-json-kind.js";
import type { JsonObject } from "../../object/json-object.js";
import { isJsonObject } from "../../object/json-object.js";

const fieldTypes: Record<string, string> = {
  key: "string",
  operator: "v1.TolerationOperator",
  value: "string",
  effect: "v1.TaintEffect",
  tolerationSeconds: "int64",
};

function mismatch(value: unknown, into: string): Error {
  return new Error(`json: cannot unmarshal ${goJsonValueKind(value)} into ${into}`);
}

/** Where the list sits: the top of an annotation, or a field of a Configuration (`default`, `whitelist`). */
export interface TolerationsSource {
  configurationField?: string;
  caseInsensitive: boolean;
}

function member(item: JsonObject, name: string, caseInsensitive: boolean): unknown {
  if (Object.hasOwn(item, name) || !caseInsensitive) return item[name];
  const found = Object.keys(item).find((key) => key.toLowerCase() === name.toLowerCase());
  return found === undefined ? undefined : item[found];
}

export function decodeTolerations(value: unknown, source: TolerationsSource): JsonObject[] {
  const field = source.configurationField;
  const into = (type: string) =>
    field === undefined ? `Go value of type ${type}` : `Go struct field Configuration.${field} of type ${type}`;
  if (value === null || value === undefined) return [];
  if (!Array.isArray(value)) throw mismatch(value, into("[]v1.Toleration"));
  return value.map((item) => {
    if (item === null) return {};
    if (!isJsonObject(item)) throw mismatch(item, into("v1.Toleration"));
    const toleration: JsonObject = {};
    for (const [name, type] of Object.entries(fieldTypes)) {
      const v = member(item, name, source.caseInsensitive);
      if (v === undefined || v === null) continue;
      const ok = type === "int64" ? typeof v === "number" && Number.isInteger(v) : typeof v === "string";
      const path = field === undefined ? name : `${field}.${name}`;
      if (!ok) throw mismatch(v, `Go struct field Toleration.${path} of type ${type}`);
      toleration[name] = v;
    }
    return toleration;
  });
}
