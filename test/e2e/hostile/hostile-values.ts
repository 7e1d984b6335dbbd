// The building blocks of hostile content: strings, numbers and JSON values that parsers and validators get
// wrong, and the means to write number literals JSON.stringify cannot (1e400, 2^64, -0).
import type { Json } from "./corpus.js";
import type { Prng } from "./prng.js";

const rawMarker = "\u0001raw:";

/** A JSON number literal written as is by `renderJson` (JSON.stringify would round or refuse it). */
export function rawNumber(literal: string): Json {
  return `${rawMarker}${literal}\u0001`;
}

/** JSON text of `value`, with `rawNumber` literals written in place. */
export function renderJson(value: Json, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(/"\\u0001raw:([-+.\w]*)\\u0001"/g, "$1");
}

export const hostileNumbers: readonly string[] = [
  "0",
  "-1",
  "-0",
  "1.5",
  "1e3",
  "1E+2",
  "1e308",
  "1e309",
  "-1e400",
  "1e-400",
  "2147483648",
  "-2147483649",
  "9007199254740993",
  "9223372036854775807",
  "9223372036854775808",
  "-9223372036854775809",
  "18446744073709551616",
  "123456789012345678901234567890123456789012345678901234567890",
  "0.1",
  "100000000000000000000000000000000000000000000000000000000000000000000000000000.5",
];

export const hostileStrings: readonly string[] = [
  "",
  " ",
  "-1",
  "0",
  "1e400",
  "9223372036854775808",
  "NaN",
  "Infinity",
  "true",
  "null",
  "%",
  "%zz",
  "%00",
  "\u0000",
  "\t\n\r",
  "\u202e",
  "\ud800",
  "🙂",
  "é",
  "../..",
  "/",
  "a/b",
  "a,b",
  "a=b",
  "a==b",
  "a!=b",
  "a in (",
  "!",
  "(",
  ")",
  "\\",
  "'",
  '"',
  "\u0024{x}",
  "{{x}}",
  "*",
  "All",
  "Strict",
  "Ignore",
  "Warn",
  "Orphan",
  "Foreground",
  "Background",
  "NotOlderThan",
  "Exact",
  "25%",
  "101%",
  "-5%",
  "1Mi",
  "-1Mi",
  "1e1000",
  "9999999999999999999999Ki",
  ".5",
  "0x10",
  "1.2.3",
  "DNS-1123",
  "UPPER",
  "a".repeat(64),
  "a".repeat(254),
  "x.".repeat(200),
];

/** A JSON value of any type, from the dictionaries above; sometimes nested or large. */
export function hostileJson(prng: Prng): Json {
  switch (prng.int(12)) {
    case 0:
      return rawNumber(prng.pick(hostileNumbers));
    case 1:
      return prng.pick(hostileStrings);
    case 2:
      return prng.chance(0.5);
    case 3:
      return null;
    case 4:
      return [];
    case 5:
      return {};
    case 6:
      return [prng.pick(hostileStrings), rawNumber(prng.pick(hostileNumbers)), null];
    case 7:
      return { [prng.pick(hostileStrings)]: prng.pick(hostileStrings) };
    case 8:
      return nested(prng.size([3, 50], [500, 1000]), prng.chance(0.5) ? "array" : "object");
    case 9:
      return Array.from({ length: prng.size([100], [10_000]) }, (_, i) => `item-${i}`);
    case 10:
      return Object.fromEntries(Array.from({ length: prng.size([100], [5000]) }, (_, i) => [`k${i}`, `v${i}`]));
    default:
      return rawNumber(String(prng.between(-5, 70000)));
  }
}

/** `depth` arrays or objects inside one another. */
export function nested(depth: number, shape: "array" | "object"): Json {
  let value: Json = "leaf";
  for (let i = 0; i < depth; i++) value = shape === "array" ? [value] : { a: value };
  return value;
}

/** Text of `depth` nested JSON arrays or objects, built without recursion. */
export function nestedText(depth: number, shape: "array" | "object", inner = "1"): string {
  return shape === "array"
    ? `${"[".repeat(depth)}${inner}${"]".repeat(depth)}`
    : `${'{"a":'.repeat(depth)}${inner}${"}".repeat(depth)}`;
}
