// kube-apiserver's strict decoding of its configuration files (serializer.EnableStrict): YAML (a JSON
// file is YAML too) converted to JSON, repeated keys refused, then decoded into Go structs where a field
// the struct lacks is a strict error (`strict decoding error: unknown field "jwt[0].issuer.foo"`) and a
// value of the wrong JSON type is encoding/json's error (`json: cannot unmarshal string into Go struct
// field Issuer.jwt.issuer.audiences of type []string`). The result has Go's zero values where fields
// are absent, so that validation reads every field without checks.
import { LineCounter, parseDocument } from "yaml";

/** The Go type a configuration field decodes into. */
export type GoShape =
  | { readonly kind: "string"; readonly goType?: string }
  | { readonly kind: "bool" }
  /** A `*string`: absent and null stay undefined, so that "" can be told from unset. */
  | { readonly kind: "optionalString" }
  | { readonly kind: "list"; readonly item: GoShape }
  | { readonly kind: "struct"; readonly name: string; readonly fields: Readonly<Record<string, GoShape>> }
  /** A `*Struct`: absent and null stay undefined. */
  | { readonly kind: "optionalStruct"; readonly struct: GoShape & { kind: "struct" } };

/** A decoding failure, worded as kube-apiserver's decoder words it. */
export class ConfigDecodeError extends Error {
  override name = "ConfigDecodeError";
}

function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return "array";
  if (typeof value === "object") return "object";
  return typeof value === "number" ? "number" : typeof value;
}

function goTypeName(shape: GoShape, pkg: string): string {
  switch (shape.kind) {
    case "string":
      return shape.goType === undefined ? "string" : `${pkg}.${shape.goType}`;
    case "optionalString":
      return "string";
    case "bool":
      return "bool";
    case "list":
      return `[]${goTypeName(shape.item, pkg)}`;
    case "struct":
      return `${pkg}.${shape.name}`;
    case "optionalStruct":
      return `${pkg}.${shape.struct.name}`;
  }
}

interface Walk {
  readonly pkg: string;
  readonly unknown: string[];
  fatal?: string;
}

/** Where a value sits: the strict path (with indices), Go's dotted path, and the struct holding it. */
interface Place {
  readonly strict: string;
  readonly dotted: string;
  readonly struct: string;
}

function typeError(walk: Walk, value: unknown, shape: GoShape, at: Place): void {
  const into = at.dotted === "" ? "Go value" : `Go struct field ${at.struct}.${at.dotted}`;
  walk.fatal ??= `json: cannot unmarshal ${jsonKind(value)} into ${into} of type ${goTypeName(shape, walk.pkg)}`;
}

function zero(shape: GoShape, walk: Walk): unknown {
  switch (shape.kind) {
    case "string":
      return "";
    case "bool":
      return false;
    case "list":
      return [];
    case "struct":
      return decodeStruct({}, shape, walk, { strict: "", dotted: "", struct: "" });
    default:
      return undefined;
  }
}

function decodeValue(value: unknown, shape: GoShape, walk: Walk, at: Place): unknown {
  if (value === null || value === undefined) return zero(shape, walk);
  switch (shape.kind) {
    case "string":
    case "optionalString":
      if (typeof value === "string") return value;
      break;
    case "bool":
      if (typeof value === "boolean") return value;
      break;
    case "list":
      if (Array.isArray(value)) {
        return value.map((item, i) => decodeValue(item, shape.item, walk, { ...at, strict: `${at.strict}[${i}]` }));
      }
      break;
    case "struct":
    case "optionalStruct": {
      const struct = shape.kind === "struct" ? shape : shape.struct;
      if (typeof value === "object" && !Array.isArray(value)) {
        return decodeStruct(value as Record<string, unknown>, struct, walk, at);
      }
      break;
    }
  }
  typeError(walk, value, shape, at);
  return zero(shape, walk);
}

function decodeStruct(
  value: Readonly<Record<string, unknown>>,
  shape: GoShape & { kind: "struct" },
  walk: Walk,
  at: Place,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, fieldShape] of Object.entries(shape.fields)) {
    const fieldAt: Place = {
      strict: at.strict === "" ? name : `${at.strict}.${name}`,
      dotted: at.dotted === "" ? name : `${at.dotted}.${name}`,
      struct: shape.name,
    };
    const decoded = decodeValue(value[name], fieldShape, walk, fieldAt);
    if (decoded !== undefined) out[name] = decoded;
  }
  for (const name of Object.keys(value)) {
    if (!Object.hasOwn(shape.fields, name)) walk.unknown.push(at.strict === "" ? name : `${at.strict}.${name}`);
  }
  return out;
}

/** Go's yaml library: a timestamp reads back as its RFC 3339 text once converted to JSON. */
function jsonOfYaml(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString().replace(".000Z", "Z");
  if (Array.isArray(value)) return value.map(jsonOfYaml);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, jsonOfYaml(v)]));
  }
  return value;
}

/** YAML (or JSON) text as JSON, with sigs.k8s.io/yaml's strict conversion errors. */
export function yamlToJson(data: string): unknown {
  const lineCounter = new LineCounter();
  const doc = parseDocument(data, { version: "1.1", uniqueKeys: true, prettyErrors: false, lineCounter });
  const [problem] = doc.errors;
  if (problem !== undefined) {
    const line = lineCounter.linePos(problem.pos[0]).line;
    if (problem.code === "DUPLICATE_KEY") {
      const token = /^("(?:[^"\\]|\\.)*"|'[^']*'|[^:\n]*?)\s*:/.exec(data.slice(problem.pos[0]))?.[1] ?? "";
      const key = token.replace(/^["']|["']$/g, "");
      fail(`error converting YAML to JSON: yaml: unmarshal errors:\n  line ${line}: key "${key}" already set in map`);
    }
    fail(`error converting YAML to JSON: yaml: line ${line}: ${problem.message.split("\n")[0]}`);
  }
  return jsonOfYaml(doc.toJS({ maxAliasCount: 100 }));
}

function fail(message: string): never {
  throw new ConfigDecodeError(message);
}

/**
 * Decodes a top-level object into `shape` (the fields below apiVersion and kind) for the Go package
 * `pkg` (`v1`, `v1beta1`, …). Throws the first type error, else every unknown field.
 */
export function decodeStrict(
  value: Readonly<Record<string, unknown>>,
  shape: GoShape & { kind: "struct" },
  pkg: string,
): Record<string, unknown> {
  const walk: Walk = { pkg, unknown: [] };
  const fields = { ...shape.fields, apiVersion: { kind: "string" }, kind: { kind: "string" } } as const;
  const decoded = decodeStruct(value, { ...shape, fields }, walk, { strict: "", dotted: "", struct: shape.name });
  if (walk.fatal !== undefined) fail(walk.fatal);
  delete decoded.apiVersion;
  delete decoded.kind;
  if (walk.unknown.length > 0) {
    fail(`strict decoding error: ${walk.unknown.map((path) => `unknown field "${path}"`).join(", ")}`);
  }
  return decoded;
}
