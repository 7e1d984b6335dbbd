// cel-go's ext.Strings: charAt, indexOf, lastIndexOf, lowerAscii, upperAscii, replace, split,
// substring, trim and join (version 0), format and strings.quote (1), join over any string list (2),
// reverse (3) and conformance formatting (4). Kubernetes v1.36 enables version 2
// (`ext.Strings(ext.StringsVersion(2))` in its base environment). Indexes count code points, as Go
// counts runes. Costs are Kubernetes' (its estimator answers for these functions before cel-go does).
import type { CheckedAst } from "../common/ast.js";
import { DynType, IntType, listType, StringType } from "../common/cel-types.js";
import type { CelLibrary, CostEstimate, FunctionDecl, OverloadCost, SizeEstimate } from "../common/decls.js";
import type { CelIssue } from "../common/issues.js";
import { ArrayList, CelError, type CelList, CelUint, type CelValue } from "../common/values.js";
import { type CallEstimateContext, dataTraversalCost, multiplyEstimates } from "./kubernetes-call-cost.js";
import {
  addCosts,
  MAX_COST,
  multiplyByCostFactor,
  STRING_TRAVERSAL_COST_FACTOR,
  sizeOf,
  traversalCost,
  traversalEstimate,
} from "./kubernetes-cost.js";
import { declareFunction, globalOverload, memberOverload } from "./standard/declare.js";
import { formatDouble } from "./standard/number-text.js";
import { checkFormatCalls, type FormatGeneration, formatString } from "./string-format.js";

/** The version Kubernetes v1.36 enables. */
export const KUBERNETES_STRINGS_VERSION = 2;
/** The newest version modelled here (its formatting is the one the cel-spec conformance suite tests). */
export const LATEST_STRINGS_VERSION = 4;

function outOfRange(index: bigint): CelError {
  return new CelError(`index out of range: ${index}`);
}

/** Strings without surrogate pairs index by UTF-16 unit exactly as by code point: the fast path. */
function hasSurrogates(s: string): boolean {
  return /[\uD800-\uDFFF]/.test(s);
}

function charAt(s: string, index: bigint): CelValue {
  const chars = hasSurrogates(s) ? Array.from(s) : undefined;
  const length = BigInt(chars ? chars.length : s.length);
  if (index < 0n || index > length) return outOfRange(index);
  if (index === length) return "";
  return chars ? (chars[Number(index)] as string) : s.charAt(Number(index));
}

/** First index of `sub` at or after `offset` in `chars` (code points). */
function searchForward(chars: readonly string[], sub: readonly string[], offset: number): number {
  for (let i = offset; i <= chars.length - sub.length; i++) if (matchesAt(chars, sub, i)) return i;
  return -1;
}

function searchBackward(chars: readonly string[], sub: readonly string[], offset: number): number {
  for (let i = Math.min(offset, chars.length - sub.length); i >= 0; i--) if (matchesAt(chars, sub, i)) return i;
  return -1;
}

function matchesAt(chars: readonly string[], sub: readonly string[], at: number): boolean {
  for (let j = 0; j < sub.length; j++) if (chars[at + j] !== sub[j]) return false;
  return true;
}

function indexOfFrom(s: string, sub: string, offset: bigint): CelValue {
  if (sub === "") return offset;
  const wide = hasSurrogates(s) || hasSurrogates(sub);
  const chars = wide ? Array.from(s) : undefined;
  if (offset < 0n || offset >= BigInt(chars ? chars.length : s.length)) return outOfRange(offset);
  const at = chars ? searchForward(chars, Array.from(sub), Number(offset)) : s.indexOf(sub, Number(offset));
  return BigInt(at);
}

function lastIndexOfFrom(s: string, sub: string, offset: bigint): CelValue {
  if (sub === "") return offset;
  const wide = hasSurrogates(s) || hasSurrogates(sub);
  const chars = wide ? Array.from(s) : undefined;
  const length = chars ? chars.length : s.length;
  if (offset < 0n || offset >= BigInt(length)) return outOfRange(offset);
  if (chars) return BigInt(searchBackward(chars, Array.from(sub), Number(offset)));
  const from = Math.min(Number(offset), length - sub.length);
  return BigInt(from < 0 ? -1 : s.lastIndexOf(sub, from));
}

// Searching an empty string finds nothing (cel-go reports -1 there rather than an offset error).
function indexOf(s: string, sub: string): CelValue {
  if (s === "" && sub !== "") return -1n;
  return indexOfFrom(s, sub, 0n);
}

function lastIndexOf(s: string, sub: string): CelValue {
  if (sub === "") return BigInt(hasSurrogates(s) ? Array.from(s).length : s.length);
  if (s === "") return -1n;
  const length = hasSurrogates(s) ? Array.from(s).length : s.length;
  return lastIndexOfFrom(s, sub, BigInt(length - 1));
}

/** Maps the ASCII letters in [from, from+25] by `delta`, leaving every other character alone. */
function shiftAscii(s: string, from: number, delta: number): string {
  let out = "";
  let copied = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= from && c < from + 26) {
      out += s.slice(copied, i) + String.fromCharCode(c + delta);
      copied = i + 1;
    }
  }
  return copied === 0 ? s : out + s.slice(copied);
}

/** Go's strings.Replace: at most n replacements (all when n < 0); an empty `old` matches around every code point. */
function replace(s: string, old: string, replacement: string, n: bigint): string {
  if (old === replacement || n === 0n) return s;
  if (old !== "") {
    if (n < 0n) return s.split(old).join(replacement);
    let out = "";
    let start = 0;
    for (let i = 0n; i < n; i++) {
      const at = s.indexOf(old, start);
      if (at < 0) break;
      out += s.slice(start, at) + replacement;
      start = at + old.length;
    }
    return out + s.slice(start);
  }
  const chars = Array.from(s);
  const count = n < 0n || n > BigInt(chars.length + 1) ? chars.length + 1 : Number(n);
  let out = "";
  for (let i = 0; i < count; i++) out += i < chars.length ? replacement + chars[i] : replacement;
  return out + chars.slice(count).join("");
}

/** Go's strings.SplitN: n == 0 gives no parts, n < 0 all of them, n > 0 at most n (the last holds the rest). */
function split(s: string, sep: string, n: bigint): CelValue {
  if (n === 0n) return new ArrayList([]);
  if (sep === "") {
    const chars = Array.from(s);
    if (n < 0n || n >= BigInt(chars.length)) return new ArrayList(chars);
    const limit = Number(n);
    return new ArrayList([...chars.slice(0, limit - 1), chars.slice(limit - 1).join("")]);
  }
  if (n < 0n) return new ArrayList(s.split(sep));
  const parts: string[] = [];
  let start = 0;
  while (BigInt(parts.length) < n - 1n) {
    const at = s.indexOf(sep, start);
    if (at < 0) break;
    parts.push(s.slice(start, at));
    start = at + sep.length;
  }
  parts.push(s.slice(start));
  return new ArrayList(parts);
}

function substring(s: string, start: bigint, end?: bigint): CelValue {
  const chars = hasSurrogates(s) ? Array.from(s) : undefined;
  const length = BigInt(chars ? chars.length : s.length);
  const stop = end ?? length;
  if (end !== undefined && start > end) return new CelError(`invalid substring range. start: ${start}, end: ${end}`);
  if (start < 0n || start > length) return outOfRange(start);
  if (stop < 0n || stop > length) return outOfRange(stop);
  return chars ? chars.slice(Number(start), Number(stop)).join("") : s.slice(Number(start), Number(stop));
}

/** Go's unicode.IsSpace (all such characters are in the BMP). */
function isSpace(c: number): boolean {
  if (c <= 0xff) return c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0x85 || c === 0xa0;
  return (
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  );
}

function trim(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && isSpace(s.charCodeAt(start))) start++;
  while (end > start && isSpace(s.charCodeAt(end - 1))) end--;
  return s.slice(start, end);
}

/** Go's %v of a CEL value, for join's error text. */
function valueText(v: CelValue): string {
  if (typeof v === "number") return formatDouble(v);
  if (v instanceof CelUint) return v.value.toString();
  return String(v);
}

function join(list: CelList, separator: string): CelValue {
  let out = "";
  for (let i = 0; i < list.size; i++) {
    const item = list.get(i);
    if (typeof item !== "string") return new CelError(`join: invalid input: ${valueText(item)}`);
    out += i === 0 ? item : separator + item;
  }
  return out;
}

const SHORT_ESCAPES: Record<string, string> = {
  "\x07": "\\a",
  "\b": "\\b",
  "\f": "\\f",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
  "\v": "\\v",
  "\\": "\\\\",
  '"': '\\"',
};

/** strings.quote: double quotes around the text with CEL's escapes; invalid code points become U+FFFD. */
function quote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.charCodeAt(0);
    out += SHORT_ESCAPES[ch] ?? (ch.length === 1 && c >= 0xd800 && c <= 0xdfff ? "\uFFFD" : ch);
  }
  return `${out}"`;
}

function reverse(s: string): string {
  return hasSurrogates(s) ? Array.from(s).reverse().join("") : s.split("").reverse().join("");
}

// ---- Costs (Kubernetes' estimator, falling back to cel-go's for format and strings.quote).

const DOUBLE_TRAVERSAL = 2 * STRING_TRAVERSAL_COST_FACTOR;

/** One pass over the receiver; the result is no longer than the receiver. */
const receiverPassCost: OverloadCost = {
  estimate: (args) => traversalEstimate(args[0]),
  resultSize: (args) => sizeOf(args[0]),
  actual: (args) => traversalCost(args[0] as CelValue),
};

/** indexOf / lastIndexOf on a string: Kubernetes charges its UTF-8 length, rounded down, at run time. */
const searchCost: OverloadCost = {
  estimate: (args) => traversalEstimate(args[0]),
  actual: (args) => dataTraversalCost(args[0] as CelValue),
};

/** Traversal of the first argument (format string, quoted string), as cel-go charges it. */
const firstArgPassCost: OverloadCost = {
  estimate: (args) => traversalEstimate(args[0]),
  actual: (args) => traversalCost(args[0] as CelValue),
};

/**
 * One end of Kubernetes' bounds on the length of `s.replace(old, new)`: an empty `old` surrounds every
 * character with the replacement; a replacement that cannot change the length (`keepsLength`) leaves
 * it; otherwise as many replacements as `old` fits into `s`, and nothing of `s` kept.
 */
function replaceBound(size: number, old: number, replacement: number, keepsLength: boolean): number {
  if (old === 0) return Math.min((size < MAX_COST ? size + 1 : size) * replacement + size, MAX_COST);
  if (keepsLength) return size;
  return Math.min(Math.ceil(size / old) * replacement, MAX_COST);
}

function replaceResultSize(args: readonly (SizeEstimate | undefined)[]): SizeEstimate {
  const [sz, old, replacement] = [sizeOf(args[0]), sizeOf(args[1]), sizeOf(args[2])];
  return {
    min: replaceBound(sz.min, old.max, replacement.min, old.max <= replacement.min),
    max: replaceBound(sz.max, old.min, replacement.max, replacement.max <= old.min),
  };
}

const replaceCost: OverloadCost = {
  estimate: (args) => multiplyByCostFactor(sizeOf(args[0]), DOUBLE_TRAVERSAL),
  resultSize: replaceResultSize,
  actual: (args) => traversalCost(args[0] as CelValue, 2),
};

/** Splitting on "" yields one part per character; a literal limit bounds the parts. */
function splitCost(limitArg: number | undefined): OverloadCost {
  return {
    estimate: (args) => multiplyByCostFactor(sizeOf(args[0]), DOUBLE_TRAVERSAL),
    resultSize(args, context?: CallEstimateContext): SizeEstimate {
      const limit = limitArg === undefined ? undefined : context?.literal(limitArg);
      if (typeof limit === "bigint") return { min: 0, max: limit < 0n ? MAX_COST : Number(limit) };
      return { min: 0, max: sizeOf(args[0]).max };
    },
    actual: (args) => traversalCost(args[0] as CelValue, 2),
  };
}

/** `list.join(sep)`: the result holds every element and a separator between each two. */
function joinSize(args: readonly (SizeEstimate | undefined)[], context?: CallEstimateContext): SizeEstimate {
  const listSize = sizeOf(args[0]);
  let size: CostEstimate = multiplyEstimates(listSize, sizeOf(context?.elementSize(0)));
  if (args.length > 1) {
    const separators = { min: Math.max(listSize.min - 1, 0), max: Math.max(listSize.max - 1, 0) };
    size = addCosts(size, multiplyEstimates(sizeOf(args[1]), separators));
  }
  return size;
}

const joinCost: OverloadCost = {
  estimate: (args, _result?: SizeEstimate, context?: CallEstimateContext) =>
    multiplyByCostFactor(joinSize(args, context), STRING_TRAVERSAL_COST_FACTOR),
  resultSize: (args, context?: CallEstimateContext) => joinSize(args, context),
  actual: (_args, result) => traversalCost(result, 2),
};

// ---- Declarations.

function str(v: CelValue | undefined): string {
  return v as string;
}

function int(v: CelValue | undefined): bigint {
  return v as bigint;
}

function formatGeneration(version: number): FormatGeneration {
  return version >= 4 ? "v2" : "v1";
}

function formatFunction(generation: FormatGeneration): FunctionDecl {
  return declareFunction(
    "format",
    memberOverload(
      "string_format",
      [StringType, listType(DynType)],
      StringType,
      ([s, args]) => formatString(str(s), args as CelList, generation),
      firstArgPassCost,
    ),
  );
}

/** indexOf / lastIndexOf: from the start (or end), or from a given code point offset. */
function searchFunction(
  name: string,
  idPrefix: string,
  whole: (s: string, sub: string) => CelValue,
  from: (s: string, sub: string, offset: bigint) => CelValue,
): FunctionDecl {
  return declareFunction(
    name,
    memberOverload(
      `${idPrefix}_string`,
      [StringType, StringType],
      IntType,
      ([s, sub]) => whole(str(s), str(sub)),
      searchCost,
    ),
    memberOverload(
      `${idPrefix}_string_int`,
      [StringType, StringType, IntType],
      IntType,
      ([s, sub, at]) => from(str(s), str(sub), int(at)),
      searchCost,
    ),
  );
}

/** The ext.Strings library at a version (0 to 4); a higher version means all functions. */
export function stringsLibraryAt(version: number): CelLibrary {
  const functions: FunctionDecl[] = [
    declareFunction(
      "charAt",
      memberOverload("string_char_at_int", [StringType, IntType], StringType, ([s, i]) => charAt(str(s), int(i))),
    ),
    searchFunction("indexOf", "string_index_of", indexOf, indexOfFrom),
    searchFunction("lastIndexOf", "string_last_index_of", lastIndexOf, lastIndexOfFrom),
    declareFunction(
      "lowerAscii",
      memberOverload(
        "string_lower_ascii",
        [StringType],
        StringType,
        ([s]) => shiftAscii(str(s), 65, 32),
        receiverPassCost,
      ),
    ),
    declareFunction(
      "upperAscii",
      memberOverload(
        "string_upper_ascii",
        [StringType],
        StringType,
        ([s]) => shiftAscii(str(s), 97, -32),
        receiverPassCost,
      ),
    ),
    declareFunction(
      "replace",
      memberOverload(
        "string_replace_string_string",
        [StringType, StringType, StringType],
        StringType,
        ([s, from, to]) => replace(str(s), str(from), str(to), -1n),
        replaceCost,
      ),
      memberOverload(
        "string_replace_string_string_int",
        [StringType, StringType, StringType, IntType],
        StringType,
        ([s, from, to, n]) => replace(str(s), str(from), str(to), int(n)),
        replaceCost,
      ),
    ),
    declareFunction(
      "split",
      memberOverload(
        "string_split_string",
        [StringType, StringType],
        listType(StringType),
        ([s, sep]) => split(str(s), str(sep), -1n),
        splitCost(undefined),
      ),
      memberOverload(
        "string_split_string_int",
        [StringType, StringType, IntType],
        listType(StringType),
        ([s, sep, n]) => split(str(s), str(sep), int(n)),
        splitCost(2),
      ),
    ),
    declareFunction(
      "substring",
      memberOverload(
        "string_substring_int",
        [StringType, IntType],
        StringType,
        ([s, start]) => substring(str(s), int(start)),
        receiverPassCost,
      ),
      memberOverload(
        "string_substring_int_int",
        [StringType, IntType, IntType],
        StringType,
        ([s, start, end]) => substring(str(s), int(start), int(end)),
        receiverPassCost,
      ),
    ),
    declareFunction(
      "trim",
      memberOverload("string_trim", [StringType], StringType, ([s]) => trim(str(s)), receiverPassCost),
    ),
    declareFunction(
      "join",
      memberOverload("list_join", [listType(StringType)], StringType, ([list]) => join(list as CelList, ""), joinCost),
      memberOverload(
        "list_join_string",
        [listType(StringType), StringType],
        StringType,
        ([list, sep]) => join(list as CelList, str(sep)),
        joinCost,
      ),
    ),
  ];
  if (version >= 1) {
    functions.push(
      formatFunction(formatGeneration(version)),
      declareFunction(
        "strings.quote",
        globalOverload("strings_quote", [StringType], StringType, ([s]) => quote(str(s)), {
          ...firstArgPassCost,
          // Every character may become an escape, plus the quotes.
          resultSize: ([s]) => ({ min: sizeOf(s).min + 2, max: sizeOf(s).max * 2 + 2 }),
        }),
      ),
    );
  }
  if (version >= 3) {
    functions.push(
      declareFunction(
        "reverse",
        memberOverload("string_reverse", [StringType], StringType, ([s]) => reverse(str(s))),
      ),
    );
  }
  return {
    name: `cel.lib.ext.strings@${version}`,
    functions,
    ...(version >= 1 ? { validators: [(ast: CheckedAst) => stringFormatIssues(ast, version)] } : {}),
  };
}

/** The strings library as Kubernetes v1.36 configures it (version 2). */
export const stringsLibrary: CelLibrary = stringsLibraryAt(KUBERNETES_STRINGS_VERSION);

/** cel-go's string format validator for a strings library version: issues for bad literal format calls. */
export function stringFormatIssues(ast: CheckedAst, version: number): CelIssue[] {
  return checkFormatCalls(ast, formatGeneration(version));
}
