// How a protobuf message becomes kube's JSON form: its fields matched with the JSON fields of the schema
// definition it encodes (generated/fields.ts), and what each one holds. Built once per message and
// definition, walking both side by side from a kind, since the .proto files carry wire names and numbers
// only and the field table carries JSON names and shapes only.
import type protobuf from "protobufjs";
import { fieldTable } from "../../../generated/fields.js";
import type { FieldNode } from "../field-table.js";
import { protobufjs } from "./protobufjs.js";
import { namedForms, type WireForm } from "./wire-forms.js";

/** The protobuf scalars kapi's schemas produce (generator/schema/proto-type.ts). */
export type ScalarType = "string" | "bytes" | "bool" | "int32" | "int64" | "float" | "double";

const scalarTypes = new Set<string>(["string", "bytes", "bool", "int32", "int64", "float", "double"]);

export type ValuePlan =
  | { kind: "scalar"; type: ScalarType }
  | { kind: "message"; plan: MessagePlan }
  /** Read with `plan` (a wire plan of the form's message), then converted (wire-forms.ts). */
  | { kind: "form"; form: WireForm; plan: MessagePlan };

export type FieldPlan = {
  /** The Go field gogo names when the wire type is wrong, taken to be the .proto name capitalized. */
  goName: string;
} & (
  | { shape: "single" | "list" | "map"; key: string; value: ValuePlan }
  /** A Go struct embedded in its parent: its JSON fields sit in the parent's object. */
  | { shape: "inline"; plan: MessagePlan }
);

export interface MessagePlan {
  /** The Go type gogo names in its errors. */
  name: string;
  /**
   * JSON plans write JSON names and values and leave zero scalars for the caller to judge (zero-values.ts);
   * wire plans, for the envelope and the wire forms, keep everything under the .proto names.
   */
  json: boolean;
  fields: ReadonlyMap<number, FieldPlan>;
}

const jsonPlans = new Map<string, MessagePlan>();
const wirePlans = new Map<string, MessagePlan>();
/** The field-table definition each message was planned as, for the unions that hold it (JSONSchemaProps). */
const definitionOf = new Map<string, number>();

function planError(message: protobuf.Type, detail: string): Error {
  return new Error(`protobuf message ${message.fullName.slice(1)}: ${detail}`);
}

/** Case and punctuation aside, .proto names are the JSON names (`uID` for uid, `ref` for $ref). */
function folded(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, "");
}

function jsonKey(fields: Readonly<Record<string, FieldNode>>, protoName: string): string | undefined {
  if (Object.hasOwn(fields, protoName)) return protoName;
  const wanted = folded(protoName);
  return Object.keys(fields).find((k) => folded(k) === wanted);
}

/** Go embeds metav1.ObjectMeta and ListMeta as `metadata`: the field's Go name is the type's. */
const embeddedMeta = new Set([
  ".k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta",
  ".k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta",
]);

/** The Go field gogo names in its errors: the .proto name capitalized, or the type of an embedded meta. */
function goName(field: protobuf.FieldBase): string {
  const type = field.resolvedType;
  if (field.name === "metadata" && type instanceof protobufjs().Type && embeddedMeta.has(type.fullName))
    return type.name;
  return field.name.charAt(0).toUpperCase() + field.name.slice(1);
}

function scalar(message: protobuf.Type, field: protobuf.FieldBase): ValuePlan {
  if (!scalarTypes.has(field.type)) throw planError(message, `${field.name} has unsupported type ${field.type}`);
  return { kind: "scalar", type: field.type as ScalarType };
}

function messageType(field: protobuf.FieldBase): protobuf.Type | undefined {
  return field.resolvedType instanceof protobufjs().Type ? field.resolvedType : undefined;
}

/** The plan of a message written as `n`, a definition of generated/fields.ts. */
export function jsonPlan(message: protobuf.Type, n: number): MessagePlan {
  const id = `${message.fullName}#${n}`;
  const known = jsonPlans.get(id);
  if (known !== undefined) return known;
  const fields = new Map<number, FieldPlan>();
  const plan: MessagePlan = { name: message.name, json: true, fields };
  // Registered before its fields are, so that recursive definitions (JSONSchemaProps) end.
  jsonPlans.set(id, plan);
  definitionOf.set(message.fullName, n);
  try {
    const json = fieldTable.definitions[n]?.fields;
    if (json === undefined) throw planError(message, `generated/fields.ts has no definition ${n}`);
    for (const field of message.fieldsArray) {
      const key = jsonKey(json, field.name);
      const node = key === undefined ? undefined : json[key];
      if (key === undefined || node === undefined) {
        const embedded = messageType(field);
        if (embedded === undefined || field.repeated || field.map) {
          throw planError(message, `no JSON field matches ${field.name}`);
        }
        fields.set(field.id, { goName: goName(field), shape: "inline", plan: jsonPlan(embedded, n) });
      } else {
        fields.set(field.id, fieldPlan(message, field, key, node));
      }
    }
  } catch (error) {
    // A plan that could not be made must not be found half made by the next body.
    jsonPlans.delete(id);
    throw error;
  }
  return plan;
}

function fieldPlan(message: protobuf.Type, field: protobuf.FieldBase, key: string, node: FieldNode): FieldPlan {
  const base = { goName: goName(field), key };
  if (field.map) {
    if (typeof node !== "object" || !("map" in node))
      throw planError(message, `${field.name} is a map, JSON ${key} not`);
    return { ...base, shape: "map", value: valuePlan(message, field, node.map) };
  }
  if (field.repeated) {
    if (typeof node !== "object" || !("list" in node))
      throw planError(message, `${field.name} is repeated, JSON ${key} not`);
    return { ...base, shape: "list", value: valuePlan(message, field, node.list) };
  }
  return { ...base, shape: "single", value: valuePlan(message, field, node) };
}

/** What one value of `field` (an item of a repeated field, the value of a map) becomes in JSON as `node`. */
function valuePlan(message: protobuf.Type, field: protobuf.FieldBase, node: FieldNode): ValuePlan {
  const type = messageType(field);
  if (type === undefined) return scalar(message, field);
  if (typeof node === "number") return { kind: "message", plan: jsonPlan(type, node) };
  const only = type.fieldsArray.length === 1 ? type.fieldsArray[0] : undefined;
  const form = (f: WireForm): ValuePlan => ({ kind: "form", form: f, plan: wirePlan(type) });
  const named = namedForms[type.fullName.slice(1)];
  switch (node) {
    case "int-or-string":
      return form("int-or-string");
    case "quantity":
      return form("quantity");
    case "any":
      if (only?.type === "bytes" && !only.repeated) return form("raw-json");
      if (named !== undefined) return { kind: "form", form: named, plan: unionPlan(type) };
      break;
    case "string":
      if (named !== undefined) return form(named);
      break;
    default:
      if (typeof node === "object" && "list" in node && only?.repeated === true && !only.map) {
        const items: FieldPlan = {
          goName: goName(only),
          key: only.name,
          shape: "list",
          value: valuePlan(type, only, node.list),
        };
        return {
          kind: "form",
          form: "list",
          plan: { name: type.name, json: false, fields: new Map([[only.id, items]]) },
        };
      }
  }
  throw planError(
    message,
    `${field.name} is ${type.fullName.slice(1)}, which has no JSON form ${JSON.stringify(node)}`,
  );
}

/**
 * A union's members under their .proto names, the schemas among them in their JSON form: the definition
 * they were planned as when the walk reached the union's parent.
 */
function unionPlan(message: protobuf.Type): MessagePlan {
  const fields = new Map<number, FieldPlan>();
  for (const field of message.fieldsArray) {
    const type = messageType(field);
    const n = type === undefined ? undefined : definitionOf.get(type.fullName);
    if (type !== undefined && n === undefined) throw planError(message, `${field.name} was reached before its schema`);
    const value: ValuePlan =
      type === undefined || n === undefined ? scalar(message, field) : { kind: "message", plan: jsonPlan(type, n) };
    fields.set(field.id, {
      goName: goName(field),
      key: field.name,
      shape: field.repeated ? "list" : "single",
      value,
    });
  }
  return { name: message.name, json: false, fields };
}

/** A message read as it is on the wire, fields under their .proto names. */
export function wirePlan(message: protobuf.Type): MessagePlan {
  const known = wirePlans.get(message.fullName);
  if (known !== undefined) return known;
  const fields = new Map<number, FieldPlan>();
  const plan: MessagePlan = { name: message.name, json: false, fields };
  wirePlans.set(message.fullName, plan);
  for (const field of message.fieldsArray) {
    const type = messageType(field);
    const value: ValuePlan = type === undefined ? scalar(message, field) : { kind: "message", plan: wirePlan(type) };
    const shape = field.map ? "map" : field.repeated ? "list" : "single";
    fields.set(field.id, { goName: goName(field), key: field.name, shape, value });
  }
  return plan;
}
