// A seeded generator of JSON objects for every kind with a protobuf message, walking each kind's definition
// in generated/fields.ts through its JSON plan (json-plan.ts), which tells the wire forms (times, quantities,
// IntOrString, raw JSON) the field table leaves as strings or `any`. It keeps to values kube carries through
// protobuf unchanged; the lossy spots it leaves out are listed in `lossySpots`.
import { fieldTable } from "../../../../generated/fields.js";
import type { GroupVersionKind } from "../../../../runtime/codecs/decode-errors.js";
import type { FieldPlan, MessagePlan, ValuePlan } from "../../../../runtime/codecs/protobuf/json-plan.js";
import { kindMessage } from "../../../../runtime/codecs/protobuf/kind-messages.js";

/** What kube itself does not carry through protobuf as JSON has it, so the generator never produces it. */
export const lossySpots = [
  "empty lists and maps: nothing on the wire, read back as absent (nil)",
  "null values: a nil pointer or zero value, not written",
  "kind and apiVersion of list items and embedded objects: messages have no TypeMeta",
  "metav1.Time fractions: Time is whole seconds (its ProtoTime leaves nanoseconds out)",
  "quantities written as JSON numbers: read back as their string",
  "int64 beyond 2^53 and float32 values with more precision than a float32",
  "fields the schema does not know: protobuf has no place for them",
];

/** mulberry32: small, fast and seeded. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const strings = ["", "a", "web-1", "kube-system", "ünïcödé", "emoji 😀", "<&>'\"", "a.b/c=d", "line\nbreak", "\u2028"];
const quantities = ["0", "1", "100m", "1Gi", "2.5", "500Mi", "1e3", "-1"];

type Json = unknown;

class Fuzzer {
  constructor(private readonly next: () => number) {}

  private int(below: number): number {
    return Math.floor(this.next() * below);
  }

  private pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }

  private string(): string {
    return this.next() < 0.7 ? this.pick(strings) : `s-${this.int(1e6)}`;
  }

  private time(micro: boolean): string {
    const ms = Date.UTC(1970 + this.int(130), this.int(12), 1 + this.int(28), this.int(24), this.int(60), this.int(60));
    const whole = new Date(ms).toISOString().slice(0, 19);
    return micro ? `${whole}.${String(this.int(1e6)).padStart(6, "0")}Z` : `${whole}Z`;
  }

  private json(depth: number): Json {
    switch (depth > 2 ? this.int(4) : this.int(6)) {
      case 0:
        return this.string();
      case 1:
        return this.int(2000) - 1000;
      case 2:
        return this.next() < 0.5;
      case 3:
        return this.int(1000) / 8;
      case 4:
        return [this.json(depth + 1), this.json(depth + 1)];
      default:
        return { [this.string()]: this.json(depth + 1), k: this.json(depth + 1) };
    }
  }

  private scalar(type: Extract<ValuePlan, { kind: "scalar" }>["type"]): Json {
    switch (type) {
      case "string":
        return this.string();
      case "bytes":
        return Buffer.from(Array.from({ length: this.int(9) }, () => this.int(256))).toString("base64");
      case "bool":
        return this.next() < 0.5;
      case "int32":
        return this.int(2 ** 32) - 2 ** 31;
      case "int64":
        return this.int(2 ** 53) - 2 ** 52;
      case "float":
        return (this.int(4000) - 2000) / 4;
      case "double":
        return (this.next() - 0.5) * 10 ** this.int(12);
    }
  }

  private union(plan: MessagePlan, key: string, depth: number): Json {
    const field = [...plan.fields.values()].find((f) => f.shape !== "inline" && f.key === key);
    if (field === undefined || field.shape === "inline") throw new Error(`${plan.name} has no ${key}`);
    return this.value(field.value, depth + 1);
  }

  value(plan: ValuePlan, depth: number): Json {
    switch (plan.kind) {
      case "scalar":
        return this.scalar(plan.type);
      case "message":
        return this.object(plan.plan, depth + 1);
      case "form":
        switch (plan.form) {
          case "time":
          case "micro-time":
            return this.time(plan.form === "micro-time");
          case "int-or-string":
            return this.next() < 0.5 ? this.int(2 ** 31) : this.pick(["25%", "http", "a"]);
          case "quantity":
            return this.pick(quantities);
          case "raw-json":
            return this.json(0);
          case "list":
            return [this.string(), this.string()];
          case "schema-or-array":
            return this.next() < 0.5 || depth > 4
              ? this.union(plan.plan, "schema", depth)
              : [this.union(plan.plan, "schema", depth)];
          case "schema-or-bool":
            return this.next() < 0.5 || depth > 4 ? this.next() < 0.5 : this.union(plan.plan, "schema", depth);
          case "schema-or-string-array":
            return this.next() < 0.5 ? [this.string()] : this.union(plan.plan, "schema", depth);
        }
    }
  }

  private field(f: Exclude<FieldPlan, { shape: "inline" }>, depth: number): Json {
    const count = 1 + this.int(2);
    if (f.shape === "list") return Array.from({ length: count }, () => this.value(f.value, depth));
    if (f.shape === "map") {
      return Object.fromEntries(Array.from({ length: count }, () => [this.string(), this.value(f.value, depth)]));
    }
    return this.value(f.value, depth);
  }

  /** Fields of `plan` into `out`; deeper messages get fewer fields, so recursive schemas end. */
  fill(plan: MessagePlan, out: Record<string, Json>, depth: number): Record<string, Json> {
    const chance = depth > 6 ? 0 : 0.7 - depth * 0.08;
    for (const f of plan.fields.values()) {
      if (f.shape === "inline") this.fill(f.plan, out, depth);
      else if (this.next() < chance || (depth > 6 && f.value.kind === "scalar" && this.next() < 0.3)) {
        out[f.key] = this.field(f, depth);
      }
    }
    return out;
  }

  object(plan: MessagePlan, depth: number): Record<string, Json> {
    return this.fill(plan, {}, depth);
  }
}

export interface KindCase {
  gvk: GroupVersionKind;
  apiVersion: string;
  plan: MessagePlan;
}

/** Every kind of generated/fields.ts that has a protobuf message (meta.k8s.io's Table has none). */
export function kindsWithMessages(): KindCase[] {
  const out: KindCase[] = [];
  for (const key of Object.keys(fieldTable.kinds)) {
    const parts = key.split("/");
    const kind = parts.pop() as string;
    const version = parts.pop() as string;
    const group = parts.join("/");
    const found = kindMessage({ group, version, kind });
    if (found === undefined) continue;
    out.push({
      gvk: { group, version, kind },
      apiVersion: group === "" ? version : `${group}/${version}`,
      plan: found.plan,
    });
  }
  return out;
}

/** A random object of a kind, with its kind and apiVersion. */
export function fuzzObject(c: KindCase, seed: number): Record<string, Json> {
  const object = new Fuzzer(random(seed)).object(c.plan, 0);
  return { kind: c.gvk.kind, apiVersion: c.apiVersion, ...object };
}
