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

/** gogo-protobuf nests messages without bound; kapi stops where kube's JSON reader would (see decodeMessage). */
const maxMessageDepth = 10000;

/** A message nested deeper than maxMessageDepth. */
export class MessageTooDeep extends ProtobufError {}

/** A message being read: where its fields go, and what is done with it once its bytes are read. */
interface MessageFrame {
  kind: "message";
  reader: WireReader;
  plan: MessagePlan;
  out: JsonObject;
  path: string;
  done: (out: JsonObject) => void;
}

/** A map entry being read: key 1 and value 2, either of which may be left out for its zero value. */
interface EntryFrame {
  kind: "entry";
  reader: WireReader;
  /** The message holding the map, named in errors. */
  plan: MessagePlan;
  field: ValueField;
  map: JsonObject;
  path: string;
  key: string;
  value: unknown;
  seen: boolean;
}

type Frame = MessageFrame | EntryFrame;

/** Reads messages with a stack of its own: a message may nest as deep as its bytes allow. */
class MessageDecoder {
  private readonly stack: Frame[] = [];

  constructor(readonly zeros: ZeroFields) {}

  /** Reads a message's fields into `out`; a message repeated on the wire merges into what came before. */
  decode(reader: WireReader, plan: MessagePlan, out: JsonObject): JsonObject {
    this.push(reader, plan, out, "", () => {});
    for (let top = this.stack.at(-1); top !== undefined; top = this.stack.at(-1)) {
      if (top.kind === "message") this.step(top);
      else this.entryStep(top);
    }
    return out;
  }

  private push(reader: WireReader, plan: MessagePlan, out: JsonObject, path: string, done: (o: JsonObject) => void) {
    if (this.stack.length >= maxMessageDepth) throw new MessageTooDeep("message nested too deep");
    this.stack.push({ kind: "message", reader, plan, out, path, done });
  }

  /** Reads fields of the top message until one opens a message of its own, or the message ends. */
  private step(top: MessageFrame): void {
    const { reader, plan } = top;
    while (!reader.done) {
      const { field, wireType } = reader.tag(plan.name);
      const f = plan.fields.get(field);
      if (f === undefined) reader.skip(wireType);
      else if (this.field(top, wireType, f)) return;
    }
    this.stack.pop();
    top.done(top.out);
  }

  /** One field of the top message; true when it opened a frame to be read first. */
  private field(top: MessageFrame, wireType: number, f: FieldPlan): boolean {
    const { reader, plan, out, path } = top;
    if (f.shape === "inline") {
      if (wireType !== wireTypes.bytes) throw wrongWireType(wireType, f.goName);
      this.push(reader.delimited(), f.plan, out, path, () => {});
      return true;
    }
    // The fields of a wire form's message are not JSON fields: what they hold stands where the form does.
    const at = plan.json ? child(path, f.key) : path;
    switch (f.shape) {
      case "single":
        return this.value(reader, wireType, f, plan.json, out[f.key], at, (value) => {
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
        });
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
          return false;
        }
        const item = index(at, list.length);
        return this.value(reader, wireType, f, plan.json, undefined, item, (value) => list.push(value ?? null));
      }
      case "map": {
        if (wireType !== wireTypes.bytes) throw wrongWireType(wireType, f.goName);
        const map = isObject(out[f.key]) ? (out[f.key] as JsonObject) : {};
        setKey(out, f.key, map);
        if (this.stack.length >= maxMessageDepth) throw new MessageTooDeep("message nested too deep");
        const entry: EntryFrame = {
          kind: "entry",
          reader: reader.delimited(),
          plan,
          field: f,
          map,
          path: at,
          key: "",
          value: undefined,
          seen: false,
        };
        this.stack.push(entry);
        return true;
      }
    }
  }

  /** Reads the top map entry until its value opens a message, or the entry ends. */
  private entryStep(entry: EntryFrame): void {
    const { reader, plan, field: f } = entry;
    while (!reader.done) {
      const { field, wireType } = reader.tag(plan.name);
      if (field === 1) {
        if (wireType !== wireTypes.bytes) throw wrongWireType(wireType, f.goName);
        entry.key = utf8.decode(reader.delimited().rest());
      } else if (field === 2) {
        const opened = this.value(reader, wireType, f, plan.json, undefined, mapKey(entry.path, entry.key), (v) => {
          entry.value = v;
          entry.seen = true;
        });
        if (opened) return;
      } else {
        reader.skip(wireType);
      }
    }
    this.stack.pop();
    const set = (value: unknown) => setKey(entry.map, entry.key, value ?? null);
    if (entry.seen) set(entry.value);
    else this.zeroValue(f.value, plan.json, mapKey(entry.path, entry.key), set);
  }

  /**
   * One value of a field, handed to `done` (undefined where Go's JSON has null); true when it is a message,
   * whose frame was pushed and calls `done` once read.
   */
  private value(
    reader: WireReader,
    wireType: number,
    f: ValueField,
    json: boolean,
    existing: unknown,
    path: string,
    done: (value: unknown) => void,
  ): boolean {
    const plan = f.value;
    const expected = plan.kind === "scalar" ? scalarWireTypes[plan.type] : wireTypes.bytes;
    if (wireType !== expected) throw wrongWireType(wireType, f.goName);
    if (plan.kind === "scalar") {
      done(readScalar(reader, plan.type, json));
      return false;
    }
    this.nested(plan, reader.delimited(), existing, path, done);
    return true;
  }

  /** Pushes the frame reading a message value: an object, or the fields of a wire form converted. */
  private nested(
    plan: Exclude<ValuePlan, { kind: "scalar" }>,
    reader: WireReader,
    existing: unknown,
    path: string,
    done: (value: unknown) => void,
  ): void {
    if (plan.kind === "message") {
      this.push(reader, plan.plan, isObject(existing) ? existing : {}, path, done);
      return;
    }
    const empty = reader.done;
    this.push(reader, plan.plan, {}, path, (fields) => done(formValue(plan.form, fields, empty)));
  }

  /** What Go finds in a map entry that leaves its value out. */
  private zeroValue(plan: ValuePlan, json: boolean, path: string, done: (value: unknown) => void): void {
    if (plan.kind !== "scalar") {
      this.nested(plan, new WireReader(new Uint8Array(0)), undefined, path, done);
      return;
    }
    switch (plan.type) {
      case "string":
        done("");
        return;
      case "bytes":
        done(json ? "" : Buffer.alloc(0));
        return;
      case "bool":
        done(false);
        return;
      default:
        done(0);
    }
  }
}

/**
 * Reads a message with a JSON plan, listing the zero scalars it wrote in `zeros`. Messages nested deeper
 * than maxMessageDepth throw MessageTooDeep: kube reads such a message, but its JSON form nests deeper than
 * encoding/json reads back, so that kube fails to store or answer it.
 */
export function decodeMessage(bytes: Uint8Array, plan: MessagePlan, out: JsonObject, zeros: ZeroFields): JsonObject {
  return new MessageDecoder(zeros).decode(new WireReader(bytes), plan, out);
}
