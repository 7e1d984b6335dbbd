// One message's bytes read through its plan into a JSON object. gogo-protobuf writes every non-pointer
// scalar of a Go struct, zero or not, so a zero on the wire may mean "not set": zeros of single scalar
// fields are written like any value and listed by path, for zero-values.ts to judge against the schema.
import { child, index, key as mapKey } from "../../errors/field-path.js";
import { setKey } from "../parsed-body.js";
import type { FieldPlan, MessagePlan, ScalarType, ValuePlan } from "./json-plan.js";
import { formValue } from "./wire-forms.js";
import { ProtobufError, WireReader, wireTypes, wrongWireType } from "./wire-reader.js";

type JsonObject = Record<string, unknown>;

type ValueField = Exclude<FieldPlan, { shape: "inline" }>;

/** A zero scalar a JSON plan wrote, which may stand for a field the client never set. */
export interface ZeroField {
  parent: JsonObject;
  key: string;
  value: string | number | boolean;
}

/** Zero fields by field path (`spec.template.spec.containers[0].imagePullPolicy`). */
export type ZeroFields = Map<string, ZeroField>;

const utf8 = new TextDecoder();

const scalarWireTypes: Record<ScalarType, number> = {
  string: wireTypes.bytes,
  bytes: wireTypes.bytes,
  bool: wireTypes.varint,
  int32: wireTypes.varint,
  int64: wireTypes.varint,
  float: wireTypes.fixed32,
  double: wireTypes.fixed64,
};

/** Go's encoding/json writes a float32 in the fewest digits that read back as the same float32. */
function float32Value(x: number): number {
  for (let digits = 1; digits < 10; digits++) {
    const shortest = Number(x.toPrecision(digits));
    if (Math.fround(shortest) === x) return shortest;
  }
  return x;
}

function finite(x: number): number {
  if (Number.isFinite(x)) return x;
  throw new ProtobufError(`json: unsupported value: ${Number.isNaN(x) ? "NaN" : x > 0 ? "+Inf" : "-Inf"}`);
}

function readScalar(reader: WireReader, type: ScalarType, json: boolean): unknown {
  switch (type) {
    case "string":
      return utf8.decode(reader.delimited().rest());
    case "bytes": {
      const bytes = Buffer.from(reader.delimited().rest());
      return json ? bytes.toString("base64") : bytes;
    }
    case "bool":
      return reader.bool();
    case "int32":
      return reader.int32();
    case "int64":
      return reader.int64();
    case "float":
      return finite(float32Value(reader.fixed(4).getFloat32(0, true)));
    case "double":
      return finite(reader.fixed(8).getFloat64(0, true));
  }
}

function isZero(value: unknown): value is string | number | boolean {
  return value === "" || value === 0 || value === false;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}

class MessageDecoder {
  constructor(readonly zeros: ZeroFields) {}

  /** Reads a message's fields into `out`; a message repeated on the wire merges into what came before. */
  read(reader: WireReader, plan: MessagePlan, out: JsonObject, path: string): JsonObject {
    while (!reader.done) {
      const { field, wireType } = reader.tag(plan.name);
      const f = plan.fields.get(field);
      if (f === undefined) reader.skip(wireType);
      else this.field(reader, wireType, plan, f, out, path);
    }
    return out;
  }

  private field(reader: WireReader, wireType: number, plan: MessagePlan, f: FieldPlan, out: JsonObject, path: string) {
    if (f.shape === "inline") {
      if (wireType !== wireTypes.bytes) throw wrongWireType(wireType, f.goName);
      this.read(reader.delimited(), f.plan, out, path);
      return;
    }
    // The fields of a wire form's message are not JSON fields: what they hold stands where the form does.
    const at = plan.json ? child(path, f.key) : path;
    switch (f.shape) {
      case "single": {
        const value = this.value(reader, wireType, f, plan.json, out[f.key], at);
        if (value === undefined) {
          delete out[f.key];
          this.zeros.delete(at);
          return;
        }
        setKey(out, f.key, value);
        if (plan.json && f.value.kind === "scalar" && isZero(value)) {
          this.zeros.set(at, { parent: out, key: f.key, value });
        } else {
          this.zeros.delete(at);
        }
        return;
      }
      case "list": {
        const list = Array.isArray(out[f.key]) ? (out[f.key] as unknown[]) : [];
        setKey(out, f.key, list);
        // Numbers may come packed: one length-delimited run of values.
        if (
          f.value.kind === "scalar" &&
          wireType === wireTypes.bytes &&
          scalarWireTypes[f.value.type] !== wireTypes.bytes
        ) {
          const packed = reader.delimited();
          while (!packed.done) list.push(readScalar(packed, f.value.type, plan.json));
          return;
        }
        list.push(this.value(reader, wireType, f, plan.json, undefined, index(at, list.length)) ?? null);
        return;
      }
      case "map": {
        if (wireType !== wireTypes.bytes) throw wrongWireType(wireType, f.goName);
        const map = isObject(out[f.key]) ? (out[f.key] as JsonObject) : {};
        setKey(out, f.key, map);
        this.entry(reader.delimited(), plan, f, map, at);
        return;
      }
    }
  }

  /** A map entry: key 1, value 2, either of which may be left out for its zero value. */
  private entry(reader: WireReader, plan: MessagePlan, f: ValueField, map: JsonObject, path: string) {
    let k = "";
    let value: unknown;
    let seen = false;
    while (!reader.done) {
      const { field, wireType } = reader.tag(plan.name);
      if (field === 1) {
        if (wireType !== wireTypes.bytes) throw wrongWireType(wireType, f.goName);
        k = utf8.decode(reader.delimited().rest());
      } else if (field === 2) {
        value = this.value(reader, wireType, f, plan.json, undefined, mapKey(path, k));
        seen = true;
      } else {
        reader.skip(wireType);
      }
    }
    if (!seen) value = this.zeroValue(f.value, plan.json, mapKey(path, k));
    setKey(map, k, value ?? null);
  }

  /** One value of a field; undefined where Go's JSON has null. */
  private value(
    reader: WireReader,
    wireType: number,
    f: ValueField,
    json: boolean,
    existing: unknown,
    path: string,
  ): unknown {
    const plan = f.value;
    const expected = plan.kind === "scalar" ? scalarWireTypes[plan.type] : wireTypes.bytes;
    if (wireType !== expected) throw wrongWireType(wireType, f.goName);
    return plan.kind === "scalar"
      ? readScalar(reader, plan.type, json)
      : this.nested(plan, reader.delimited(), existing, path);
  }

  private nested(plan: Exclude<ValuePlan, { kind: "scalar" }>, reader: WireReader, existing: unknown, path: string) {
    if (plan.kind === "message") return this.read(reader, plan.plan, isObject(existing) ? existing : {}, path);
    const empty = reader.done;
    return formValue(plan.form, this.read(reader, plan.plan, {}, path), empty);
  }

  /** What Go finds in a map entry that leaves its value out. */
  private zeroValue(plan: ValuePlan, json: boolean, path: string): unknown {
    if (plan.kind !== "scalar") return this.nested(plan, new WireReader(new Uint8Array(0)), undefined, path);
    switch (plan.type) {
      case "string":
        return "";
      case "bytes":
        return json ? "" : Buffer.alloc(0);
      case "bool":
        return false;
      default:
        return 0;
    }
  }
}

/** Reads a message with a JSON plan, listing the zero scalars it wrote in `zeros`. */
export function decodeMessage(bytes: Uint8Array, plan: MessagePlan, out: JsonObject, zeros: ZeroFields): JsonObject {
  return new MessageDecoder(zeros).read(new WireReader(bytes), plan, out, "");
}
