import { describe, expect, it } from "vitest";
import { formatCallSignature, formatCheckedType } from "../../../../runtime/cel/checker/format-type.js";
import {
  isAssignable,
  isAssignableList,
  isExactType,
  mostGeneral,
  substitute,
  TypeMapping,
} from "../../../../runtime/cel/checker/unification.js";
import {
  AnyType,
  BoolType,
  type CelType,
  DurationType,
  DynType,
  ErrorType,
  IntType,
  listType,
  mapType,
  NullType,
  objectType,
  opaqueType,
  optionalType,
  StringType,
  TimestampType,
  TypeType,
  typeOfType,
  typeParam,
  UintType,
} from "../../../../runtime/cel/common/cel-types.js";

const A = typeParam("A");
const B = typeParam("B");
const quantity = opaqueType("kubernetes.Quantity");
const pod = objectType("Pod");

function assignable(t1: CelType, t2: CelType, mapping = new TypeMapping()): boolean {
  return isAssignable(mapping, t1, t2) !== undefined;
}

/** The binding of `param` after assigning each [from, to] pair in order, or undefined when one fails. */
function bind(pairs: readonly [CelType, CelType][], param: CelType): string | undefined {
  let mapping: TypeMapping | undefined = new TypeMapping();
  for (const [t1, t2] of pairs) {
    mapping = mapping && isAssignable(mapping, t1, t2);
  }
  return mapping && formatCheckedType(substitute(mapping, param, false));
}

describe("assignability", () => {
  it.each<[string, CelType, CelType, boolean]>([
    ["same primitive", IntType, IntType, true],
    ["different primitives", IntType, UintType, false],
    ["dyn accepts anything", DynType, listType(IntType), true],
    ["anything fits dyn", mapType(StringType, IntType), DynType, true],
    ["Any behaves as dyn", AnyType, IntType, true],
    ["error is a wildcard", ErrorType, StringType, true],
    ["null to an object", NullType, pod, true],
    ["null to an opaque type", NullType, quantity, true],
    ["null to a timestamp", NullType, TimestampType, true],
    ["null to a duration", DurationType, NullType, true],
    ["null to int", NullType, IntType, false],
    ["int to null", IntType, NullType, false],
    ["null to null", NullType, NullType, true],
    ["lists by element", listType(IntType), listType(IntType), true],
    ["lists with different elements", listType(IntType), listType(StringType), false],
    ["list of dyn to list of int", listType(DynType), listType(IntType), true],
    ["maps by key and value", mapType(StringType, IntType), mapType(StringType, BoolType), false],
    ["objects by name", pod, objectType("Pod"), true],
    ["different objects", pod, objectType("Service"), false],
    ["opaque types by name", quantity, opaqueType("kubernetes.Quantity"), true],
    ["different opaque types", quantity, opaqueType("net.IP"), false],
    ["opaque types by parameters", optionalType(IntType), optionalType(StringType), false],
    ["optional of dyn", optionalType(DynType), optionalType(StringType), true],
    ["type values whatever their parameter", typeOfType(IntType), typeOfType(listType(StringType)), true],
    ["type value to int", typeOfType(IntType), IntType, false],
  ])("%s", (_name, t1, t2, expected) => {
    expect(assignable(t1, t2)).toBe(expected);
  });
});

describe("type parameters", () => {
  it("bind on first use and must agree afterwards", () => {
    expect(bind([[IntType, A]], A)).toBe("int");
    expect(
      bind(
        [
          [IntType, A],
          [StringType, A],
        ],
        A,
      ),
    ).toBeUndefined();
  });

  it("widen to dyn when a later use is dynamic", () => {
    expect(
      bind(
        [
          [IntType, A],
          [DynType, A],
        ],
        A,
      ),
    ).toBe("dyn");
  });

  it("keep a more general binding when a more specific type meets it", () => {
    expect(
      bind(
        [
          [listType(DynType), A],
          [listType(IntType), A],
        ],
        A,
      ),
    ).toBe("list(dyn)");
  });

  it("bind inside parameterized types, in either direction", () => {
    expect(bind([[listType(IntType), listType(A)]], A)).toBe("int");
    expect(bind([[mapType(A, B), mapType(StringType, quantity)]], B)).toBe("kubernetes.Quantity");
    expect(bind([[optionalType(A), optionalType(listType(UintType))]], A)).toBe("list(uint)");
  });

  it("refuse a binding that would contain the parameter itself", () => {
    expect(assignable(listType(A), A)).toBe(false);
  });

  it("match a whole signature at once, or not at all", () => {
    const mapping = new TypeMapping();
    expect(isAssignableList(mapping, [listType(IntType), IntType], [listType(A), A])).toBeDefined();
    expect(isAssignableList(mapping, [listType(IntType), StringType], [listType(A), A])).toBeUndefined();
    expect(isAssignableList(mapping, [IntType], [A, A])).toBeUndefined();
    // A failed match leaves the original mapping untouched.
    expect(substitute(mapping, A, false)).toBe(A);
  });
});

describe("substitution and generality", () => {
  it("replaces bound parameters, and unbound ones by dyn only when asked", () => {
    const mapping = isAssignable(new TypeMapping(), IntType, A) as TypeMapping;
    expect(formatCheckedType(substitute(mapping, mapType(A, B), false))).toBe("map(int, B)");
    expect(formatCheckedType(substitute(mapping, mapType(A, B), true))).toBe("map(int, dyn)");
    expect(formatCheckedType(substitute(mapping, typeOfType(listType(B)), true))).toBe("type(list(dyn))");
  });

  it("prefers the less specific of two unifying types", () => {
    expect(mostGeneral(IntType, DynType)).toBe(DynType);
    expect(formatCheckedType(mostGeneral(listType(IntType), listType(DynType)))).toBe("list(dyn)");
    expect(formatCheckedType(mostGeneral(mapType(StringType, IntType), mapType(StringType, IntType)))).toBe(
      "map(string, int)",
    );
  });

  it("tells the plain type of types from type(dyn)", () => {
    expect(isExactType(TypeType, typeOfType(DynType))).toBe(false);
    expect(isExactType(typeOfType(IntType), typeOfType(IntType))).toBe(true);
    expect(isExactType(A, typeParam("A"))).toBe(true);
    expect(isExactType(A, B)).toBe(false);
  });
});

describe("type formatting", () => {
  it.each<[CelType, string]>([
    [TimestampType, "timestamp"],
    [DurationType, "duration"],
    [NullType, "null"],
    [ErrorType, "!error!"],
    [AnyType, "any"],
    [TypeType, "type"],
    [typeOfType(DynType), "type(dyn)"],
    [typeOfType(TypeType), "type(type)"],
    [listType(typeParam("_var0")), "list(_var0)"],
    [optionalType(mapType(StringType, DynType)), "optional_type(map(string, dyn))"],
    [quantity, "kubernetes.Quantity"],
    [pod, "Pod"],
  ])("%s", (type, expected) => {
    expect(formatCheckedType(type)).toBe(expected);
  });

  it("prints member call signatures with the receiver first", () => {
    expect(formatCallSignature([StringType, IntType], true)).toBe("string.(int)");
    expect(formatCallSignature([IntType, StringType], false)).toBe("(int, string)");
    expect(formatCallSignature([], false)).toBe("()");
  });
});
