// Kubernetes' regex library (k8s.io/apiserver/pkg/cel/library/regex.go): `s.find(re)` is the leftmost
// match or "", `s.findAll(re)` / `s.findAll(re, n)` the successive non-overlapping matches (at most n
// when n >= 0), with Go's rules for empty matches. Patterns are RE2 (re2js), compiled once through the
// standard library's cache; a bad pattern is cel-go's `Illegal regex: error parsing regexp: …`.

import { IntType, listType, StringType } from "../../common/cel-types.js";
import type { CelLibrary, OverloadCost, SizeEstimate } from "../../common/decls.js";
import { ArrayList, CelError, type CelValue } from "../../common/values.js";
import { sizeOf } from "../kubernetes-cost.js";
import { declareFunction, memberOverload } from "../standard/declare.js";
import { compileRegex } from "../standard/regex.js";
import { matchesCost } from "../standard/standard-cost.js";

function compile(pattern: string): ReturnType<typeof compileRegex> {
  const re = compileRegex(pattern);
  return re instanceof CelError ? new CelError(`Illegal regex: ${re.message}`) : re;
}

function find(s: string, pattern: string): CelValue {
  const re = compile(pattern);
  if (re instanceof CelError) return re;
  return (re.re2().find(s) as string | null) ?? "";
}

function findAll(s: string, pattern: string, limit: bigint): CelValue {
  const re = compile(pattern);
  if (re instanceof CelError) return re;
  // re2js takes Go's `n`: negative for all matches.
  const n = limit < 0n ? -1 : limit > BigInt(s.length + 1) ? s.length + 1 : Number(limit);
  return new ArrayList((re.re2().findAll(s, n) as string[] | null) ?? []);
}

/** Kubernetes charges find/findAll like `matches`; the result is at most one string or match per character. */
const findCost: OverloadCost = {
  ...matchesCost,
  resultSize: (args): SizeEstimate => ({ min: 0, max: sizeOf(args[0]).max }),
};

function str(v: CelValue | undefined): string {
  return v as string;
}

export const regexLibrary: CelLibrary = {
  name: "kubernetes.regex",
  functions: [
    declareFunction(
      "find",
      memberOverload(
        "string_find_string",
        [StringType, StringType],
        StringType,
        ([s, re]) => find(str(s), str(re)),
        findCost,
      ),
    ),
    declareFunction(
      "findAll",
      memberOverload(
        "string_find_all_string",
        [StringType, StringType],
        listType(StringType),
        ([s, re]) => findAll(str(s), str(re), -1n),
        findCost,
      ),
      memberOverload(
        "string_find_all_string_int",
        [StringType, StringType, IntType],
        listType(StringType),
        ([s, re, n]) => findAll(str(s), str(re), n as bigint),
        findCost,
      ),
    ),
  ],
};
