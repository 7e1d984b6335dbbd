// A JSON object written as a protobuf message through its plan: the mirror of decode-message.ts, writing
// what gogo-protobuf's generated Marshal methods write for the Go struct the JSON decodes into. Fields go
// out in field-number order; map entries sorted by key (kube generates with stable_marshaler_all); a field
// the JSON leaves out or sets to null is a nil pointer or an omitted empty value in Go and is not written,
// while a value the JSON has, zero or not, is (Go reads both back the same, so the JSON reads back
// unchanged). Values of the wrong JSON type cannot come from a stored object and are left out.
import type { FieldPlan, MessagePlan, ScalarType, ValuePlan } from "./json-plan.js";
import { formFields } from "./wire-forms.js";
import { wireTypes } from "./wire-reader.js";
import { WireWriter } from "./wire-writer.js";

type JsonObject = Record<string, unknown>;

interface NumberedField {
  number: number;
  field: FieldPlan;
}

const inOrder = new WeakMap<MessagePlan, readonly NumberedField[]>();

function fieldsInOrder(plan: MessagePlan): readonly NumberedField[] {
  let fields = inOrder.get(plan);
  if (fields === undefined) {
    fields = [...plan.fields].map(([number, field]) => ({ number, field })).sort((a, b) => a.number - b.number);
    inOrder.set(plan, fields);
  }
  return fields;
}

/** Go's sort.Strings order, which is UTF-8 byte order: code points, where UTF-16 units put surrogates early. */
export function compareKeys(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      // Surrogates (U+D800–DFFF) stand for code points above U+FFFF: they sort after U+E000–FFFF.
      x += x < 0xe000 ? 0x2000 : -0x800;
      y += y < 0xe000 ? 0x2000 : -0x800;
    }
    return x - y;
  }
  return a.length - b.length;
}

const onlyKeys = new WeakMap<MessagePlan, string>();

/** The key of a wire form's first field: the one field of RawExtension, FieldsV1, Verbs and the like. */
function onlyKey(plan: MessagePlan): string {
  let key = onlyKeys.get(plan);
  if (key === undefined) {
    const first = plan.fields.values().next().value;
    key = first === undefined || first.shape === "inline" ? "" : first.key;
    onlyKeys.set(plan, key);
  }
  return key;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}

/** Writes a scalar with its key; nothing when the value is not of the field's type. */
function writeScalar(w: WireWriter, field: number, type: ScalarType, value: unknown): void {
  switch (type) {
    case "string":
      if (typeof value !== "string") return;
      w.tag(field, wireTypes.bytes);
      w.string(value);
      return;
    case "bytes": {
      // Base64 in JSON; the bytes themselves in a wire form's fields.
      const bytes = typeof value === "string" ? Buffer.from(value, "base64") : value;
      if (!(bytes instanceof Uint8Array)) return;
      w.tag(field, wireTypes.bytes);
      w.bytes(bytes);
      return;
    }
    case "bool":
      if (typeof value !== "boolean") return;
      w.tag(field, wireTypes.varint);
      w.bool(value);
      return;
    case "int32":
    case "int64":
      if (typeof value !== "number" || !Number.isFinite(value)) return;
      w.tag(field, wireTypes.varint);
      w.int(Math.trunc(value));
      return;
    case "float":
    case "double":
      if (typeof value !== "number") return;
      if (type === "float") {
        w.tag(field, wireTypes.fixed32);
        w.float(value);
      } else {
        w.tag(field, wireTypes.fixed64);
        w.double(value);
      }
      return;
  }
}

/** What Go holds for a JSON null in a list or map: the zero of the value's type. */
function zeroOf(plan: ValuePlan): unknown {
  if (plan.kind !== "scalar") return {};
  switch (plan.type) {
    case "string":
    case "bytes":
      return "";
    case "bool":
      return false;
    default:
      return 0;
  }
}

/** Work left in writing a message, done last in first out so that nested messages are written in place. */
type Task =
  /** The fields of a message, from field index `next` on. */
  | { kind: "fields"; plan: MessagePlan; obj: JsonObject; next: number }
  /** The end of a length-delimited value begun at `start`. */
  | { kind: "end"; start: number }
  | { kind: "list"; number: number; plan: ValuePlan; items: readonly unknown[]; next: number }
  | { kind: "map"; number: number; plan: ValuePlan; map: JsonObject; keys: string[]; next: number };

/**
 * Writes messages with a stack of tasks of its own rather than recursion: a message (a CRD's schema) may
 * nest thousands of levels deep.
 */
class MessageWriter {
  private readonly tasks: Task[] = [];

  constructor(private readonly w: WireWriter) {}

  write(plan: MessagePlan, obj: JsonObject): void {
    this.tasks.push({ kind: "fields", plan, obj, next: 0 });
    for (let task = this.tasks.at(-1); task !== undefined; task = this.tasks.at(-1)) this.run(task);
  }

  /** A nested message with its key: begun now, its fields written next, its length once they are. */
  private nested(field: number, plan: MessagePlan, obj: JsonObject): void {
    this.w.tag(field, wireTypes.bytes);
    this.tasks.push({ kind: "end", start: this.w.begin() }, { kind: "fields", plan, obj, next: 0 });
  }

  private value(field: number, plan: ValuePlan, value: unknown): void {
    switch (plan.kind) {
      case "scalar":
        writeScalar(this.w, field, plan.type, value);
        return;
      case "message":
        if (isObject(value)) this.nested(field, plan.plan, value);
        return;
      case "form": {
        const fields = formFields(plan.form, value, onlyKey(plan.plan));
        if (fields !== undefined) this.nested(field, plan.plan, fields);
        return;
      }
    }
  }

  /** Does the top task's next step; a task done is removed. */
  private run(task: Task): void {
    switch (task.kind) {
      case "end":
        this.tasks.pop();
        this.w.end(task.start);
        return;
      case "fields": {
        const fields = fieldsInOrder(task.plan);
        if (task.next === fields.length) {
          this.tasks.pop();
          return;
        }
        const { number, field } = fields[task.next++] as NumberedField;
        this.field(number, field, task.obj);
        return;
      }
      case "list":
        if (task.next === task.items.length) {
          this.tasks.pop();
          return;
        }
        this.value(task.number, task.plan, task.items[task.next++] ?? zeroOf(task.plan));
        return;
      case "map": {
        if (task.next === task.keys.length) {
          this.tasks.pop();
          return;
        }
        const key = task.keys[task.next++] as string;
        this.w.tag(task.number, wireTypes.bytes);
        this.tasks.push({ kind: "end", start: this.w.begin() });
        this.w.tag(1, wireTypes.bytes);
        this.w.string(key);
        const entry = task.map[key];
        if (entry !== undefined && entry !== null) this.value(2, task.plan, entry);
        return;
      }
    }
  }

  private field(number: number, f: FieldPlan, obj: JsonObject): void {
    if (f.shape === "inline") {
      // An embedded Go struct is a message of its own on the wire, holding fields of the parent's JSON object.
      this.nested(number, f.plan, obj);
      return;
    }
    const value = obj[f.key];
    if (value === undefined || value === null) return;
    switch (f.shape) {
      case "single":
        this.value(number, f.value, value);
        return;
      case "list":
        if (Array.isArray(value)) this.tasks.push({ kind: "list", number, plan: f.value, items: value, next: 0 });
        return;
      case "map":
        if (isObject(value)) {
          const keys = Object.keys(value).sort(compareKeys);
          this.tasks.push({ kind: "map", number, plan: f.value, map: value, keys, next: 0 });
        }
        return;
    }
  }
}

/** Writes `obj` as the message `plan` describes into `w`, without a length. */
export function writeMessage(w: WireWriter, plan: MessagePlan, obj: JsonObject): void {
  new MessageWriter(w).write(plan, obj);
}

/** The bytes of `obj` as the message `plan` describes. */
export function encodeMessage(plan: MessagePlan, obj: JsonObject): Buffer {
  const w = new WireWriter();
  writeMessage(w, plan, obj);
  return w.finish();
}
