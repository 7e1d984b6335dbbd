// Type assignability and unification as cel-go's checker does it (checker/types.go): type parameters are
// bound in a substitution mapping while argument types are matched against overload signatures, dyn and
// error match anything, null matches nullable types, and joined types widen to the most general one.
import { type CelType, DynType, TypeType, typeOfType } from "../common/cel-types.js";

/** Type-parameter bindings (`_var0` → int). Copied before a tentative match, kept when it succeeds. */
export class TypeMapping {
  constructor(private readonly bindings = new Map<string, CelType>()) {}

  find(type: CelType): CelType | undefined {
    return type.kind === "param" ? this.bindings.get(type.name) : undefined;
  }

  add(param: CelType, type: CelType): void {
    if (param.kind === "param") this.bindings.set(param.name, type);
  }

  copy(): TypeMapping {
    return new TypeMapping(new Map(this.bindings));
  }
}

/** dyn and google.protobuf.Any accept and stand for any value. */
export function isDyn(type: CelType): boolean {
  return type.kind === "dyn" || type.kind === "any";
}

export function isDynOrError(type: CelType): boolean {
  return isDyn(type) || type.kind === "error";
}

/** The plain `type` type (cel-go's TypeType, no parameter) is the shared TypeType singleton. */
function isPlainTypeType(type: CelType): boolean {
  return type === TypeType;
}

/** cel-go's IsExactType: same kind, name and parameters, type parameters compared by name. */
export function isExactType(a: CelType, b: CelType): boolean {
  if (a === b) return true;
  switch (a.kind) {
    case "list":
      return b.kind === "list" && isExactType(a.elem, b.elem);
    case "map":
      return b.kind === "map" && isExactType(a.key, b.key) && isExactType(a.value, b.value);
    case "type":
      if (b.kind !== "type" || isPlainTypeType(a) !== isPlainTypeType(b)) return false;
      return isPlainTypeType(a) || isExactType(a.type, b.type);
    case "param":
    case "object":
      return b.kind === a.kind && a.name === b.name;
    case "opaque":
      return b.kind === "opaque" && a.name === b.name && exactParams(a.params, b.params);
    default:
      return a.kind === b.kind;
  }
}

function exactParams(a: readonly CelType[], b: readonly CelType[]): boolean {
  return a.length === b.length && a.every((p, i) => isExactType(p, b[i] as CelType));
}

/** Whether t1 is equal to or less specific (dyn or a type parameter in its place) than t2. */
export function isEqualOrLessSpecific(t1: CelType, t2: CelType): boolean {
  if (isDyn(t1) || t1.kind === "param") return true;
  if (isDyn(t2) || t2.kind === "param") return false;
  switch (t1.kind) {
    case "opaque":
      return (
        t2.kind === "opaque" &&
        t1.name === t2.name &&
        t1.params.length === t2.params.length &&
        t1.params.every((p, i) => isEqualOrLessSpecific(p, t2.params[i] as CelType))
      );
    case "list":
      return t2.kind === "list" && isEqualOrLessSpecific(t1.elem, t2.elem);
    case "map":
      return t2.kind === "map" && isEqualOrLessSpecific(t1.key, t2.key) && isEqualOrLessSpecific(t1.value, t2.value);
    case "type":
      return t2.kind === "type";
    default:
      return isExactType(t1, t2);
  }
}

/** The more general of two types known to unify. */
export function mostGeneral(t1: CelType, t2: CelType): CelType {
  return isEqualOrLessSpecific(t1, t2) ? t1 : t2;
}

/** If t1 is assignable to t2 under the mapping, the mapping extended with the bindings that took; else undefined. */
export function isAssignable(mapping: TypeMapping, t1: CelType, t2: CelType): TypeMapping | undefined {
  const next = mapping.copy();
  return assignable(next, t1, t2) ? next : undefined;
}

/** Element-wise isAssignable over two lists of equal length. */
export function isAssignableList(
  mapping: TypeMapping,
  l1: readonly CelType[],
  l2: readonly CelType[],
): TypeMapping | undefined {
  const next = mapping.copy();
  return assignableList(next, l1, l2) ? next : undefined;
}

function assignableList(m: TypeMapping, l1: readonly CelType[], l2: readonly CelType[]): boolean {
  if (l1.length !== l2.length) return false;
  for (let i = 0; i < l1.length; i++) if (!assignable(m, l1[i] as CelType, l2[i] as CelType)) return false;
  return true;
}

function assignable(m: TypeMapping, t1: CelType, t2: CelType): boolean {
  if (t2.kind === "param") {
    const { valid, hasBinding } = validSubstitution(m, t1, t2);
    if (valid) return true;
    if (hasBinding) return false;
  }
  if (t1.kind === "param") return validSubstitution(m, t2, t1).valid;
  if (isDynOrError(t1) || isDynOrError(t2)) return true;
  if (t1.kind === "null_type") return isNullable(t2);
  if (t2.kind === "null_type") return isNullable(t1);
  switch (t1.kind) {
    case "type":
      return t2.kind === "type";
    case "list":
      return t2.kind === "list" && assignable(m, t1.elem, t2.elem);
    case "map":
      return t2.kind === "map" && assignable(m, t1.key, t2.key) && assignable(m, t1.value, t2.value);
    case "opaque":
      return t2.kind === "opaque" && t1.name === t2.name && assignableList(m, t1.params, t2.params);
    case "object":
      return t2.kind === "object" && t1.name === t2.name;
    default:
      return t1.kind === t2.kind;
  }
}

/** cel-go keeps its legacy rule: null is assignable to messages, abstract types, Any, durations and timestamps. */
function isNullable(type: CelType): boolean {
  switch (type.kind) {
    case "opaque":
    case "object":
    case "any":
    case "duration":
    case "timestamp":
    case "dyn":
    case "null_type":
      return true;
    default:
      return false;
  }
}

/**
 * Whether `param` (or what it is bound to) can stand for `type`, binding or widening it: a bound parameter
 * whose binding agrees with `type` is widened to the more general of the two.
 */
function validSubstitution(m: TypeMapping, type: CelType, param: CelType): { valid: boolean; hasBinding: boolean } {
  if (isExactType(type, param)) return { valid: true, hasBinding: true };
  const bound = m.find(param);
  if (bound !== undefined) {
    if (isExactType(type, bound)) return { valid: true, hasBinding: true };
    if (assignable(m, type, bound)) {
      const widened = mostGeneral(type, bound);
      if (notReferencedIn(m, param, widened)) m.add(param, widened);
      return { valid: true, hasBinding: true };
    }
    return { valid: false, hasBinding: true };
  }
  if (notReferencedIn(m, param, type)) {
    m.add(param, type);
    return { valid: true, hasBinding: false };
  }
  return { valid: false, hasBinding: false };
}

/** The occurs check: `type` does not appear in `within`, directly or through bindings. */
function notReferencedIn(m: TypeMapping, type: CelType, within: CelType): boolean {
  if (isExactType(type, within)) return false;
  switch (within.kind) {
    case "param": {
      const bound = m.find(within);
      return bound === undefined || notReferencedIn(m, type, bound);
    }
    case "list":
      return notReferencedIn(m, type, within.elem);
    case "map":
      return notReferencedIn(m, type, within.key) && notReferencedIn(m, type, within.value);
    case "opaque":
      return within.params.every((p) => notReferencedIn(m, type, p));
    case "type":
      // The parameter of a type of types counts too, or `[c, type(c)]` would bind c to type(c).
      return isPlainTypeType(within) || notReferencedIn(m, type, within.type);
    default:
      return true;
  }
}

/** Replaces bound type parameters by their bindings; unbound ones become dyn when paramsToDyn is set. */
export function substitute(m: TypeMapping, type: CelType, paramsToDyn: boolean): CelType {
  const bound = m.find(type);
  if (bound !== undefined) return substitute(m, bound, paramsToDyn);
  switch (type.kind) {
    case "param":
      return paramsToDyn ? DynType : type;
    case "list": {
      const elem = substitute(m, type.elem, paramsToDyn);
      return elem === type.elem ? type : { kind: "list", elem };
    }
    case "map": {
      const key = substitute(m, type.key, paramsToDyn);
      const value = substitute(m, type.value, paramsToDyn);
      return key === type.key && value === type.value ? type : { kind: "map", key, value };
    }
    case "opaque": {
      const params = type.params.map((p) => substitute(m, p, paramsToDyn));
      return params.every((p, i) => p === type.params[i]) ? type : { kind: "opaque", name: type.name, params };
    }
    case "type": {
      if (isPlainTypeType(type)) return type;
      const inner = substitute(m, type.type, paramsToDyn);
      return inner === type.type ? type : typeOfType(inner);
    }
    default:
      return type;
  }
}
