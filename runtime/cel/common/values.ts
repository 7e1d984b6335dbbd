// CEL values at run time. Primitives use JS values where CEL's type is unambiguous (bool → boolean,
// int → bigint, double → number, string → string, bytes → Uint8Array, null → null); every other type
// is a class so a value always knows its CEL type. Errors are values too (CelError), because CEL's
// logical operators absorb them (`true || error` is true).
import {
  BoolType,
  BytesType,
  type CelType,
  DoubleType,
  DurationType,
  DynType,
  IntType,
  listType,
  mapType,
  NullType,
  type ObjectType,
  optionalType,
  StringType,
  TimestampType,
  typeOfType,
  UintType,
} from "./cel-types.js";

export type CelValue =
  | null
  | boolean
  | bigint
  | number
  | string
  | Uint8Array
  | CelUint
  | CelList
  | CelMap
  | CelObject
  | CelTimestamp
  | CelDuration
  | CelTypeValue
  | CelOptional
  | CelOpaque
  | CelError;

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;
export const UINT64_MAX = 2n ** 64n - 1n;

/** An unsigned 64-bit integer; `value` is within [0, 2^64). */
export class CelUint {
  constructor(readonly value: bigint) {}
}

/** An error produced during evaluation; it propagates like a value until something absorbs it. */
export class CelError {
  constructor(
    readonly message: string,
    /** The expression that failed, when known. */
    readonly exprId?: number,
  ) {}
}

/** A point in time: seconds since the epoch (UTC) and nanoseconds in [0, 1e9). */
export class CelTimestamp {
  constructor(
    readonly seconds: bigint,
    readonly nanos: number,
  ) {}
}

/** A signed span of time in nanoseconds. */
export class CelDuration {
  constructor(readonly nanos: bigint) {}
}

/** A type used as a value: `type(1)`, `int`, `list`. */
export class CelTypeValue {
  constructor(readonly type: CelType) {}
}

/** `optional.of(x)` / `optional.none()`. */
export class CelOptional {
  static readonly none = new CelOptional(undefined);
  constructor(readonly value: CelValue | undefined) {}
  hasValue(): this is CelOptional & { value: CelValue } {
    return this.value !== undefined;
  }
}

/** A library-defined value (Quantity, URL, IP, CIDR, Semver, Authorizer, …). */
export abstract class CelOpaque {
  abstract readonly celType: CelType;
  /** CEL equality with another value of any type. */
  abstract equals(other: CelValue): boolean;
}

/** A list. Lists decoded from objects may carry their schema's list type, which changes equality and `+`. */
export abstract class CelList {
  abstract readonly size: number;
  /** Element at a valid index (0 ≤ i < size). */
  abstract get(index: number): CelValue;
  /** `x-kubernetes-list-type`: set and map lists compare ignoring order; `+` merges for them. */
  listType?: "set" | "map";
  /** Keys of a `map` list. */
  mapKeys?: readonly string[];
  /** Static element type when known; dyn otherwise. */
  elemType: CelType = DynType;
  *[Symbol.iterator](): IterableIterator<CelValue> {
    for (let i = 0; i < this.size; i++) yield this.get(i);
  }
  toArray(): CelValue[] {
    return [...this];
  }
}

/** A list over a JS array of CEL values. */
export class ArrayList extends CelList {
  constructor(readonly items: readonly CelValue[]) {
    super();
  }
  get size(): number {
    return this.items.length;
  }
  get(index: number): CelValue {
    return this.items[index] as CelValue;
  }
  override toArray(): CelValue[] {
    return [...this.items];
  }
}

export type MapKey = bigint | CelUint | boolean | string | number;

/** A map with int, uint, bool or string keys. Lookups use CEL's numeric equality across int, uint and double. */
export abstract class CelMap {
  abstract readonly size: number;
  /** The value under a key, or undefined when absent. */
  abstract get(key: CelValue): CelValue | undefined;
  abstract keys(): IterableIterator<CelValue>;
  has(key: CelValue): boolean {
    return this.get(key) !== undefined;
  }
  *entries(): IterableIterator<[CelValue, CelValue]> {
    for (const k of this.keys()) yield [k, this.get(k) as CelValue];
  }
}

/** The normalized form of a key, so that 1, 1u and 1.0 find the same entry; undefined for a value that cannot be a key. */
export function mapKeyOf(key: CelValue): string | undefined {
  switch (typeof key) {
    case "string":
      return `s${key}`;
    case "boolean":
      return key ? "btrue" : "bfalse";
    case "bigint":
      return `n${key}`;
    case "number":
      return Number.isInteger(key) ? `n${BigInt(key)}` : undefined;
    default:
      return key instanceof CelUint ? `n${key.value}` : undefined;
  }
}

/** A map built in CEL (literals, library results). */
export class HashMap extends CelMap {
  private readonly byKey = new Map<string, [CelValue, CelValue]>();
  /** Entries in insertion order; a repeated key keeps the last value (callers check duplicates). */
  constructor(entries: Iterable<readonly [CelValue, CelValue]> = []) {
    super();
    for (const [k, v] of entries) this.set(k, v);
  }
  /** Adds an entry; false when the key is not a valid map key. */
  set(key: CelValue, value: CelValue): boolean {
    const norm = mapKeyOf(key);
    if (norm === undefined || typeof key === "number") return false;
    this.byKey.set(norm, [key, value]);
    return true;
  }
  get size(): number {
    return this.byKey.size;
  }
  get(key: CelValue): CelValue | undefined {
    const norm = mapKeyOf(key);
    return norm === undefined ? undefined : this.byKey.get(norm)?.[1];
  }
  *keys(): IterableIterator<CelValue> {
    for (const [k] of this.byKey.values()) yield k;
  }
  override *entries(): IterableIterator<[CelValue, CelValue]> {
    for (const [k, v] of this.byKey.values()) yield [k, v];
  }
}

/** A message value: an object of a declared object type. Absent fields read as their type's zero value or fail. */
export abstract class CelObject {
  abstract readonly type: ObjectType;
  /** The field's value, or undefined when the field is not set. */
  abstract get(field: string): CelValue | undefined;
  /** Names of the fields that are set. */
  abstract fieldNames(): IterableIterator<string>;
}

/** The runtime type of a value, as `type(x)` reports it. */
export function typeOfValue(value: CelValue): CelType {
  switch (typeof value) {
    case "boolean":
      return BoolType;
    case "bigint":
      return IntType;
    case "number":
      return DoubleType;
    case "string":
      return StringType;
    case "object":
      if (value === null) return NullType;
      if (value instanceof Uint8Array) return BytesType;
      if (value instanceof CelUint) return UintType;
      if (value instanceof CelList) return listType(value.elemType);
      if (value instanceof CelMap) return mapType(DynType, DynType);
      if (value instanceof CelObject) return value.type;
      if (value instanceof CelTimestamp) return TimestampType;
      if (value instanceof CelDuration) return DurationType;
      if (value instanceof CelTypeValue) return typeOfType(value.type);
      if (value instanceof CelOptional) return optionalType(DynType);
      if (value instanceof CelOpaque) return value.celType;
      return { kind: "error" };
  }
  return DynType;
}

export function isError(value: CelValue | undefined): value is CelError {
  return value instanceof CelError;
}
