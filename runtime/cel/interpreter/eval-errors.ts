// Run-time error values worded as cel-go words them, since Kubernetes returns the text to users.
import { typeName } from "../common/cel-types.js";
import { CelError, CelUint, type CelValue, typeOfValue } from "../common/values.js";

/** A value as cel-go prints it with %v in error messages: strings bare, numbers in decimal. */
export function formatValue(value: CelValue): string {
  switch (typeof value) {
    case "string":
      return value;
    case "bigint":
    case "number":
    case "boolean":
      return String(value);
    default:
      if (value === null) return "NULL_VALUE";
      if (value instanceof CelUint) return String(value.value);
      return typeName(typeOfValue(value));
  }
}

/** The CEL type name of a value, as `no such overload` and iteration errors name it. */
export function valueTypeName(value: CelValue): string {
  return typeName(typeOfValue(value));
}

export function noSuchKey(key: CelValue, exprId: number): CelError {
  return new CelError(`no such key: ${formatValue(key)}`, exprId);
}

export function indexOutOfBounds(index: CelValue, exprId: number): CelError {
  return new CelError(`index out of bounds: ${formatValue(index)}`, exprId);
}

/** A variable absent from the activation; several names when the reference had namespace candidates. */
export function noSuchAttribute(names: readonly string[], exprId: number): CelError {
  return new CelError(`no such attribute(s): ${names.join(", ")}`, exprId);
}

/** cel-go's MaybeNoSuchOverload: the first error argument, else `no such overload: f(int, string)`. */
export function noSuchOverload(fn: string, args: readonly CelValue[], exprId: number): CelError {
  for (const arg of args) if (arg instanceof CelError) return arg;
  return new CelError(`no such overload: ${fn}(${args.map(valueTypeName).join(", ")})`, exprId);
}

/** A logical operator or conditional given a value that is neither a bool nor an error. */
export function noSuchOverloadFor(value: CelValue, exprId: number): CelError {
  return value instanceof CelError ? value : new CelError("no such overload", exprId);
}
