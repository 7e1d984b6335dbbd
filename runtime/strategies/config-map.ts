// ConfigMaps: key names, a key in both data and binaryData, the 1 MiB total, and `immutable`.
import { type FieldError, invalid, tooLong } from "../errors/field-error.js";
import { key } from "../errors/field-path.js";
import type { KubeObject } from "../object/kube-object.js";
import type { Strategy } from "../registry/strategy.js";
import { asObject } from "../validation/walk.js";
import { dataBytes, dataKeyErrors, immutableDataErrors, maxDataSize } from "./config-data.js";

function validateConfigMap(obj: KubeObject): FieldError[] {
  const errs = dataKeyErrors(obj.data, "data");
  const binary = asObject(obj.binaryData) ?? {};
  for (const name of Object.keys(asObject(obj.data) ?? {})) {
    if (name in binary) errs.push(invalid(key("data", name), name, "duplicate of key present in binaryData"));
  }
  errs.push(...dataKeyErrors(obj.binaryData, "binaryData"));
  // kube reports the size on the whole object, whose path prints as `[]`.
  if (dataBytes(obj.data, "utf8") + dataBytes(obj.binaryData, "base64") > maxDataSize)
    errs.push(tooLong("[]", maxDataSize));
  return errs;
}

export const strategy: Strategy = {
  validate(obj: KubeObject, old?: KubeObject): FieldError[] {
    const errs = old === undefined ? [] : immutableDataErrors(obj, old, ["data", "binaryData"]);
    return [...errs, ...validateConfigMap(obj)];
  },
};
