// Field selection, indexing and presence tests on run-time values, with cel-go's attribute semantics:
// maps by key (1, 1u and 1.0 are one key), lists by int, uint or whole double, objects by field name.
// An optional operand makes the access optional: none stays none, a missing entry becomes none and a
// present one optional.of(value); `.?` and `[?]` make it optional on any operand. A presence test or
// optional access on a value that has no fields (an int, null) reads as absent, or with `strict`
// (cel-go's EnableErrorOnBadPresenceTest) fails with `no such key`.
import {
  CelError,
  CelList,
  CelMap,
  CelObject,
  CelOptional,
  CelUint,
  type CelValue,
  type MapKey,
} from "../common/values.js";
import { formatValue, indexOutOfBounds, noSuchKey, valueTypeName } from "./eval-errors.js";

const NONE = CelOptional.none;

/** `operand.field`. */
export function selectField(operand: CelValue, field: string, exprId: number, strict: boolean): CelValue {
  if (operand instanceof CelMap || operand instanceof CelObject) {
    const value = operand.get(field);
    return value === undefined ? noSuchKey(field, exprId) : value;
  }
  if (operand instanceof CelOptional) return optionalSelect(operand, field, exprId, strict);
  if (operand instanceof CelError) return operand;
  if (operand instanceof CelList) return unsupportedListIndex(field, exprId);
  return noSuchKey(field, exprId);
}

/** `operand.?field`. */
export function optionalSelect(operand: CelValue, field: string, exprId: number, strict: boolean): CelValue {
  let target = operand;
  if (target instanceof CelOptional) {
    if (target.value === undefined) return NONE;
    target = target.value;
  }
  if (target instanceof CelMap || target instanceof CelObject) return present(target.get(field));
  if (target instanceof CelError) return target;
  if (target instanceof CelList) return unsupportedListIndex(field, exprId);
  return strict ? noSuchKey(field, exprId) : NONE;
}

/** `has(operand.field)`: false for absent entries and unset fields (Kubernetes' objects are maps to cel-go). */
export function hasField(operand: CelValue, field: string, exprId: number, strict: boolean): CelValue {
  if (operand instanceof CelMap) return operand.has(field);
  if (operand instanceof CelObject) return operand.get(field) !== undefined;
  if (operand instanceof CelOptional) {
    return operand.value === undefined ? false : hasField(operand.value, field, exprId, strict);
  }
  if (operand instanceof CelError) return operand;
  if (operand instanceof CelList) return unsupportedListIndex(field, exprId);
  return strict ? noSuchKey(field, exprId) : false;
}

/** `operand[key]`. */
export function indexValue(operand: CelValue, key: CelValue, exprId: number, strict: boolean): CelValue {
  if (operand instanceof CelError) return operand;
  if (key instanceof CelError) return key;
  if (operand instanceof CelList) {
    const index = listIndex(key, exprId);
    if (typeof index !== "number") return index;
    return index >= 0 && index < operand.size ? operand.get(index) : indexOutOfBounds(key, exprId);
  }
  if (operand instanceof CelMap) {
    const value = operand.get(key);
    return value === undefined ? noSuchKey(key, exprId) : value;
  }
  if (operand instanceof CelObject && typeof key === "string") {
    const value = operand.get(key);
    return value === undefined ? noSuchKey(key, exprId) : value;
  }
  if (operand instanceof CelOptional) return optionalIndex(operand, key, exprId, strict);
  return noSuchKey(key, exprId);
}

/** `operand[?key]`. */
export function optionalIndex(operand: CelValue, key: CelValue, exprId: number, strict: boolean): CelValue {
  let target = operand;
  if (target instanceof CelOptional) {
    if (target.value === undefined) return NONE;
    target = target.value;
  }
  if (target instanceof CelError) return target;
  if (key instanceof CelError) return key;
  if (target instanceof CelList) {
    const index = listIndex(key, exprId);
    if (typeof index !== "number") return index;
    return index >= 0 && index < target.size ? new CelOptional(target.get(index)) : NONE;
  }
  if (target instanceof CelMap) return present(target.get(key));
  if (target instanceof CelObject && typeof key === "string") return present(target.get(key));
  return strict ? noSuchKey(key, exprId) : NONE;
}

function present(value: CelValue | undefined): CelOptional {
  return value === undefined ? NONE : new CelOptional(value);
}

/** cel-go's IndexOrError: an int, or a uint or double holding a whole number. */
function listIndex(key: CelValue, exprId: number): number | CelError {
  if (typeof key === "bigint") return Number(key);
  if (typeof key === "number") {
    return Number.isInteger(key) ? key : new CelError(`unsupported index value ${formatValue(key)} in list`, exprId);
  }
  if (key instanceof CelUint) return Number(key.value);
  return unsupportedListIndex(key, exprId);
}

function unsupportedListIndex(key: CelValue, exprId: number): CelError {
  return new CelError(`unsupported index type '${valueTypeName(key)}' in list`, exprId);
}

/** Whether a value can be a map key (int, uint, bool or string), as map literals require. */
export function isMapKey(value: CelValue): value is Exclude<MapKey, number> {
  return (
    typeof value === "string" || typeof value === "bigint" || typeof value === "boolean" || value instanceof CelUint
  );
}
