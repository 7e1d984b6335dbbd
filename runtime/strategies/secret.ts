// Secrets: `stringData` merged into `data` (kube does it when decoding v1), key names, the 1 MiB limit,
// the keys each well-known type requires, a type that may not change, and `immutable`.
import { type FieldError, invalid, required, tooLong } from "../errors/field-error.js";
import { key } from "../errors/field-path.js";
import type { KubeObject } from "../object/kube-object.js";
import type { Strategy } from "../registry/strategy.js";
import { immutableField } from "../validation/field-rules.js";
import { asObject, type JsonObject } from "../validation/walk.js";
import { dataBytes, dataKeyErrors, immutableDataErrors, maxDataSize } from "./config-data.js";

const redacted = "<secret contents redacted>";

/** stringData wins over data for the same key, and is never stored. */
function mergeStringData(obj: KubeObject): void {
  const stringData = asObject(obj.stringData);
  if (stringData === undefined) return;
  const data = asObject(obj.data) ?? {};
  for (const [k, v] of Object.entries(stringData)) {
    if (typeof v === "string") data[k] = Buffer.from(v, "utf8").toString("base64");
  }
  obj.data = data;
  delete obj.stringData;
}

/** What Go's json.Unmarshal into a map says about a document that is not a JSON object; undefined if it is one. */
function jsonObjectError(text: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    const first = text.trimStart()[0];
    if (first === undefined) return "unexpected end of JSON input";
    if (!/[[{"\-0-9tfn]/.test(first)) return `invalid character '${first}' looking for beginning of value`;
    return "unexpected end of JSON input";
  }
  if (parsed === null || (typeof parsed === "object" && !Array.isArray(parsed))) return undefined;
  const type = Array.isArray(parsed) ? "array" : typeof parsed === "boolean" ? "bool" : typeof parsed;
  return `json: cannot unmarshal ${type} into Go value of type map[string]interface {}`;
}

function decoded(value: unknown): string {
  return typeof value === "string" ? Buffer.from(value, "base64").toString("utf8") : "";
}

/** The keys a well-known secret type requires. */
function validateType(obj: KubeObject, data: JsonObject): FieldError[] {
  const has = (k: string): boolean => typeof data[k] === "string";
  const dockerConfig = (k: string): FieldError[] => {
    if (!has(k)) return [required(key("data", k))];
    const error = jsonObjectError(decoded(data[k]));
    return error === undefined ? [] : [invalid(key("data", k), redacted, error)];
  };
  switch (obj.type) {
    case "kubernetes.io/service-account-token": {
      const name = asObject(asObject(obj.metadata)?.annotations)?.["kubernetes.io/service-account.name"];
      return typeof name === "string" && name !== ""
        ? []
        : [required(key("metadata.annotations", "kubernetes.io/service-account.name"))];
    }
    case "kubernetes.io/dockercfg":
      return dockerConfig(".dockercfg");
    case "kubernetes.io/dockerconfigjson":
      return dockerConfig(".dockerconfigjson");
    case "kubernetes.io/basic-auth":
      // kube's paths here carry a literal `%s`.
      return has("username") || has("password")
        ? []
        : [required(key("data[%s]", "username")), required(key("data[%s]", "password"))];
    case "kubernetes.io/ssh-auth":
      return decoded(data["ssh-privatekey"]) === "" ? [required(key("data[%s]", "ssh-privatekey"))] : [];
    case "kubernetes.io/tls":
      return ["tls.crt", "tls.key"].filter((k) => !has(k)).map((k) => required(key("data", k)));
    default:
      return [];
  }
}

function validateSecret(obj: KubeObject): FieldError[] {
  const data = asObject(obj.data) ?? {};
  const errs = dataKeyErrors(data, "data");
  if (dataBytes(data, "base64") > maxDataSize) errs.push(tooLong("data", maxDataSize));
  errs.push(...validateType(obj, data));
  return errs;
}

export const strategy: Strategy = {
  default(obj: KubeObject): void {
    mergeStringData(obj);
  },
  validate(obj: KubeObject, old?: KubeObject): FieldError[] {
    const errs: FieldError[] = [];
    if (old !== undefined) {
      errs.push(...immutableField(obj.type ?? "", old.type ?? "", "type"));
      errs.push(...immutableDataErrors(obj, old, ["data"]));
    }
    return [...errs, ...validateSecret(obj)];
  },
};
