// List, map and message literals. Elements are evaluated in order and the first error wins; `?` entries
// take an optional and are left out when it is none. Creation costs cel-go's fixed bases (list 10, map 30,
// message 40); literals made only of constants are folded at plan time and cost nothing, as cel-go's
// OptOptimize (which Kubernetes enables) does.
import type { ObjectType } from "../common/cel-types.js";
import {
  ArrayList,
  CelDuration,
  CelError,
  CelObject,
  CelOptional,
  CelTimestamp,
  type CelValue,
  HashMap,
} from "../common/values.js";
import { formatValue, valueTypeName } from "./eval-errors.js";
import type { Evaluator, Frame } from "./frame.js";
import { isMapKey } from "./selection.js";

export const LIST_CREATE_BASE_COST = 10;
export const MAP_CREATE_BASE_COST = 30;
export const STRUCT_CREATE_BASE_COST = 40;

export class ListLiteral implements Evaluator {
  constructor(
    readonly id: number,
    readonly elements: readonly Evaluator[],
    /** Per element: written `?x`. */
    readonly optional: readonly boolean[],
  ) {}

  eval(frame: Frame): CelValue {
    frame.cost += LIST_CREATE_BASE_COST;
    const items: CelValue[] = [];
    for (let i = 0; i < this.elements.length; i++) {
      let value = (this.elements[i] as Evaluator).eval(frame);
      if (value instanceof CelError) return value;
      if (this.optional[i]) {
        if (!(value instanceof CelOptional)) {
          return new CelError(
            `cannot initialize optional list element from non-optional value ${formatValue(value)}`,
            this.id,
          );
        }
        if (value.value === undefined) continue;
        value = value.value;
      }
      items.push(value);
    }
    return new ArrayList(items);
  }
}

export interface MapEntryEvaluator {
  readonly key: Evaluator;
  readonly value: Evaluator;
  readonly optional: boolean;
}

export class MapLiteral implements Evaluator {
  constructor(
    readonly id: number,
    readonly entries: readonly MapEntryEvaluator[],
  ) {}

  eval(frame: Frame): CelValue {
    frame.cost += MAP_CREATE_BASE_COST;
    const map = new HashMap();
    for (const entry of this.entries) {
      const key = entry.key.eval(frame);
      if (key instanceof CelError) return key;
      let value = entry.value.eval(frame);
      if (value instanceof CelError) return value;
      if (!isMapKey(key)) return new CelError(`unsupported key type: ${valueTypeName(key)}`, this.id);
      if (entry.optional) {
        if (!(value instanceof CelOptional)) {
          return new CelError(
            `cannot initialize optional entry '${formatValue(key)}' from non-optional value ${formatValue(value)}`,
            this.id,
          );
        }
        if (value.value === undefined) continue;
        value = value.value;
      }
      if (map.has(key)) return new CelError("Failed with repeated key", this.id);
      map.set(key, value);
    }
    return map;
  }
}

export interface FieldEvaluator {
  readonly name: string;
  readonly value: Evaluator;
  readonly optional: boolean;
}

/** A message built by a literal: the fields it set. Unset fields read as absent (`no such key`). */
export class LiteralObject extends CelObject {
  constructor(
    readonly type: ObjectType,
    private readonly values: ReadonlyMap<string, CelValue>,
  ) {
    super();
  }

  get(field: string): CelValue | undefined {
    return this.values.get(field);
  }

  fieldNames(): IterableIterator<string> {
    return this.values.keys();
  }
}

/** What a message literal builds: an object of a declared type, or a google.protobuf Timestamp or Duration. */
export type MessageKind = ObjectType | "google.protobuf.Timestamp" | "google.protobuf.Duration";

export class ObjectLiteral implements Evaluator {
  constructor(
    readonly id: number,
    readonly kind: MessageKind,
    readonly fields: readonly FieldEvaluator[],
  ) {}

  eval(frame: Frame): CelValue {
    frame.cost += STRUCT_CREATE_BASE_COST;
    const values = new Map<string, CelValue>();
    for (const field of this.fields) {
      let value = field.value.eval(frame);
      if (value instanceof CelError) return value;
      if (field.optional) {
        if (!(value instanceof CelOptional)) {
          return new CelError(
            `cannot initialize optional entry '${field.name}' from non-optional value ${formatValue(value)}`,
            this.id,
          );
        }
        if (value.value === undefined) continue;
        value = value.value;
      }
      values.set(field.name, value);
    }
    return typeof this.kind === "string" ? this.timeValue(this.kind, values) : this.object(this.kind, values);
  }

  private object(type: ObjectType, values: Map<string, CelValue>): CelValue {
    if (type.fields.size > 0) {
      for (const name of values.keys()) {
        if (!type.fields.has(name)) return new CelError(`no such field: ${name}`, this.id);
      }
    }
    return new LiteralObject(type, values);
  }

  /** `google.protobuf.Timestamp{seconds, nanos}` / `google.protobuf.Duration{seconds, nanos}`. */
  private timeValue(kind: MessageKind, values: Map<string, CelValue>): CelValue {
    let seconds = 0n;
    let nanos = 0n;
    for (const [name, value] of values) {
      if (typeof value !== "bigint") return new CelError(`no such overload: ${name}(${valueTypeName(value)})`, this.id);
      if (name === "seconds") seconds = value;
      else if (name === "nanos") nanos = value;
      else return new CelError(`no such field: ${name}`, this.id);
    }
    if (kind === "google.protobuf.Duration") return new CelDuration(seconds * 1_000_000_000n + nanos);
    const total = seconds * 1_000_000_000n + nanos;
    const wholeSeconds = total >= 0n ? total / 1_000_000_000n : -((-total + 999_999_999n) / 1_000_000_000n);
    return new CelTimestamp(wholeSeconds, Number(total - wholeSeconds * 1_000_000_000n));
  }
}
