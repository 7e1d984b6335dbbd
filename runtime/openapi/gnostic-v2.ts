// The protobuf form of /openapi/v2: the swagger JSON document as gnostic's openapi_v2.Document, which
// client-go asks for (`application/com.github.proto-openapi.spec.v2@v1.0+protobuf`) and kubectl reads for
// `explain --output plaintext-openapiv2` and OpenAPI v2 patch metadata. The document is converted the way
// gnostic compiles JSON: camelCase keys fill the snake_case fields of the same name, JSON objects used as
// maps become ordered (name, value) lists, `x-` keys become vendor extensions, and free-form values
// (extensions, `default`, `example`, `enum` entries) travel as YAML text.
import type protobuf from "protobufjs";
import { toGoYaml } from "../codecs/go-yaml.js";
import { protobufjs } from "../codecs/protobuf/protobufjs.js";
import { packageFile } from "../package-files.js";

type Json = Record<string, unknown>;
type Message = Record<string, unknown>;

let documentType: protobuf.Type | undefined;

function loadDocumentType(): protobuf.Type {
  if (documentType === undefined) {
    const root = new (protobufjs().Root)();
    root.loadSync(packageFile("runtime/openapi/gnostic-openapi-v2.proto"), { keepCase: true });
    root.resolveAll();
    documentType = root.lookupType("openapi.v2.Document");
  }
  return documentType;
}

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** Which member of a `oneof` message a JSON value compiles to, as gnostic decides it. */
const oneofMember: Record<string, (json: unknown) => string> = {
  AdditionalPropertiesItem: (json) => (typeof json === "boolean" ? "boolean" : "schema"),
  ParametersItem: (json) => (isObject(json) && "$ref" in json ? "json_reference" : "parameter"),
  Parameter: (json) => (isObject(json) && json.in === "body" ? "body_parameter" : "non_body_parameter"),
  NonBodyParameter: (json) => {
    const where = isObject(json) ? json.in : undefined;
    if (where === "header") return "header_parameter_sub_schema";
    if (where === "formData") return "form_data_parameter_sub_schema";
    return where === "path" ? "path_parameter_sub_schema" : "query_parameter_sub_schema";
  },
  ResponseValue: (json) => (isObject(json) && "$ref" in json ? "json_reference" : "response"),
  SchemaItem: (json) => (isObject(json) && json.type === "file" ? "file_schema" : "schema"),
  SecurityDefinitionsItem: (json) => {
    const { type, flow } = isObject(json) ? json : {};
    if (type === "basic") return "basic_authentication_security";
    if (type === "apiKey") return "api_key_security";
    if (flow === "implicit") return "oauth2_implicit_security";
    if (flow === "password") return "oauth2_password_security";
    return flow === "application" ? "oauth2_application_security" : "oauth2_access_code_security";
  },
};

/** Messages that wrap one JSON value that may be written bare: `type: string` for `type: [string]`. */
const listWrappers: Record<string, string> = { TypeItem: "value", ItemsItem: "schema", StringArray: "value" };

/** `operation_id` → `operationId`, `_ref` → `$ref`. */
function jsonKey(field: string): string {
  if (field === "_ref") return "$ref";
  return field.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
}

function fieldValue(field: protobuf.Field, json: unknown): unknown {
  const type = field.resolvedType;
  if (type instanceof protobufjs().Type) {
    if (!field.repeated) return toMessage(type, json);
    return Array.isArray(json) ? json.map((item) => toMessage(type, item)) : undefined;
  }
  if (field.repeated) return Array.isArray(json) && json.length > 0 ? json.filter(isScalarOf(field.type)) : undefined;
  // proto3 writes no zero values, so neither does Go's encoder for gnostic's messages.
  return isScalarOf(field.type)(json) && json !== false && json !== "" && json !== 0 ? json : undefined;
}

function isScalarOf(protoType: string): (v: unknown) => boolean {
  if (protoType === "string") return (v) => typeof v === "string";
  if (protoType === "bool") return (v) => typeof v === "boolean";
  if (protoType === "double") return (v) => typeof v === "number";
  return (v) => typeof v === "number" && Number.isInteger(v);
}

/** (name, value) entries of a JSON object used as a map; with vendor extensions beside them, `x-` keys are not entries. */
function namedEntries(entryType: protobuf.Type, json: Json, skipExtensions: boolean): Message[] {
  const valueField = entryType.fields.value as protobuf.Field;
  return Object.entries(json)
    .filter(([name]) => !(skipExtensions && name.startsWith("x-")))
    .map(([name, value]) => ({ name, value: fieldValue(valueField, value) }));
}

function toMessage(type: protobuf.Type, json: unknown): Message {
  if (type.name === "Any") return { yaml: toGoYaml(json) };
  const chooser = oneofMember[type.name];
  if (chooser) {
    const member = chooser(json);
    return { [member]: fieldValue(type.fields[member] as protobuf.Field, json) };
  }
  const wrapped = listWrappers[type.name];
  if (wrapped !== undefined) return { [wrapped]: fieldValue(type.fields[wrapped] as protobuf.Field, [json].flat()) };
  if (!isObject(json)) return {};
  const out: Message = {};
  const hasExtensions = type.fields.vendor_extension !== undefined;
  for (const field of type.fieldsArray) {
    const entryType = field.resolvedType;
    let value: unknown;
    if (field.name === "vendor_extension") {
      value = Object.entries(json)
        .filter(([name]) => name.startsWith("x-"))
        .map(([name, v]) => ({ name, value: { yaml: toGoYaml(v) } }));
    } else if (field.repeated && entryType instanceof protobufjs().Type && entryType.name.startsWith("Named")) {
      // A map: the whole object (Definitions, Properties) or its non-extension keys (Paths, Responses).
      value = namedEntries(entryType, json, hasExtensions);
    } else {
      const key = jsonKey(field.name);
      if (key in json) value = fieldValue(field, json[key]);
    }
    if (value !== undefined && !(Array.isArray(value) && value.length === 0)) out[field.name] = value;
  }
  return out;
}

/** The binary openapi_v2.Document of a swagger 2.0 JSON document. */
export function encodeOpenApiV2(document: Json): Uint8Array {
  const type = loadDocumentType();
  return type.encode(toMessage(type, document)).finish();
}
