// The result of the Go-style parsers behind Kubernetes' CEL constructors (`ip()`, `cidr()`,
// `quantity()`, `semver()`): the value, or the error text Go would return.
import { CelError, type CelValue } from "../../common/values.js";
import { noSuchOverload } from "../standard/overload-errors.js";

export type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

/** A constructor function's result: the parsed value wrapped as a CEL value, or the parse error. */
export function parsedValue<T>(
  input: CelValue,
  parse: (s: string) => Parsed<T>,
  wrap: new (value: T) => CelValue,
): CelValue {
  if (typeof input !== "string") return noSuchOverload();
  const parsed = parse(input);
  return parsed.ok ? new wrap(parsed.value) : new CelError(parsed.error);
}
