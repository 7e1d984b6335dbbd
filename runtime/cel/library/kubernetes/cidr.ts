// Kubernetes' CIDR library (k8s.io/apiserver/pkg/cel/library/cidr.go, "net.cidr", from 1.30): the
// `net.CIDR` type, `cidr(string)`, `isCIDR`, `containsIP`, `containsCIDR`, `ip()`, `masked()`,
// `prefixLength()` and `string(cidr)`, over Go's netip prefixes. Kubernetes wraps a parse failure's text
// twice ("network address parse error during conversion from string: " appears two times); kapi keeps it.

import { goQuote } from "../../../errors/go-format.js";
import { BoolType, IntType, opaqueType, StringType } from "../../common/cel-types.js";
import type { CelLibrary, CostEstimate, FunctionDecl, OverloadCost, SizeEstimate } from "../../common/decls.js";
import { CelError, CelOpaque, type CelValue } from "../../common/values.js";
import {
  actualSize,
  addCosts,
  multiplyByCostFactor,
  parsesStringArgument,
  STRING_TRAVERSAL_COST_FACTOR,
  traversalEstimate,
} from "../kubernetes-cost.js";
import { declareFunction, globalOverload, memberOverload } from "../standard/declare.js";
import { noSuchOverload } from "../standard/overload-errors.js";
import { IPType, IPValue, stringToIP } from "./ip.js";
import {
  is4In6,
  maskedPrefix,
  type Prefix,
  parsePrefix,
  prefixContains,
  prefixContainsPrefix,
  prefixEquals,
  prefixString,
} from "./netip.js";
import type { Parsed } from "./parsed.js";

export const CIDRType = opaqueType("net.CIDR");

/** A CIDR value: an address with a prefix length; host bits are kept until `masked()`. */
export class CIDRValue extends CelOpaque {
  readonly celType = CIDRType;
  constructor(readonly prefix: Prefix) {
    super();
  }
  equals(other: CelValue): boolean {
    return other instanceof CIDRValue && prefixEquals(this.prefix, other.prefix);
  }
  /** The prefix length in whole bytes, which cost tracking uses as its size. */
  costSize(): number {
    return Math.ceil(this.prefix.bits / 8);
  }
  override toString(): string {
    return prefixString(this.prefix);
  }
}

const parseErrorPrefix = "network address parse error during conversion from string: ";

/** Kubernetes' parseCIDR: netip.ParsePrefix, then no IPv4-mapped IPv6 address. */
export function parseCIDR(raw: string): Parsed<Prefix> {
  const parsed = parsePrefix(raw);
  if (!parsed.ok) return { ok: false, error: parseErrorPrefix + parsed.error };
  if (is4In6(parsed.value.addr)) return { ok: false, error: `IPv4-mapped IPv6 address ${goQuote(raw)} is not allowed` };
  return parsed;
}

/** `cidr(string)`: the prefix, or the parse error (prefixed once more, as Kubernetes does). */
export function stringToCIDR(s: CelValue): CelValue {
  if (typeof s !== "string") return noSuchOverload();
  const parsed = parseCIDR(s);
  return parsed.ok ? new CIDRValue(parsed.value) : new CelError(parseErrorPrefix + parsed.error);
}

function containsIP(cidr: CelValue, ip: CelValue): CelValue {
  if (!(cidr instanceof CIDRValue) || !(ip instanceof IPValue)) return noSuchOverload();
  return prefixContains(cidr.prefix, ip.addr);
}

function containsCIDR(cidr: CelValue, other: CelValue): CelValue {
  if (other instanceof CelError) return other;
  if (!(cidr instanceof CIDRValue) || !(other instanceof CIDRValue)) return noSuchOverload();
  return prefixContainsPrefix(cidr.prefix, other.prefix);
}

/** The static size of an IP address in bytes: 4 or 16. */
const addressBytes: SizeEstimate = { min: 4, max: 16 };

/** cost.go's containsIP / containsCIDR costs: comparing address bytes, re-reading the CIDR, parsing a string operand. */
function containmentCost(masks: boolean, parsesString: boolean): OverloadCost {
  const compare = multiplyByCostFactor(
    { min: addressBytes.min * 2, max: addressBytes.max * 2 },
    STRING_TRAVERSAL_COST_FACTOR,
  );
  const base: CostEstimate = masks
    ? addCosts(addCosts(compare, multiplyByCostFactor(addressBytes, STRING_TRAVERSAL_COST_FACTOR)), { min: 1, max: 1 })
    : compare;
  return {
    estimate: (args) => (parsesString ? addCosts(base, traversalEstimate(args[1])) : base),
    actual: ([cidr, other]) => {
      const cidrSize = actualSize(cidr as CelValue);
      let cost = Math.ceil((cidrSize + cidrSize) * STRING_TRAVERSAL_COST_FACTOR);
      if (masks) cost += Math.ceil(cidrSize * STRING_TRAVERSAL_COST_FACTOR) + 1;
      if (parsesString) cost += Math.ceil(actualSize(other as CelValue) * STRING_TRAVERSAL_COST_FACTOR);
      return cost;
    },
  };
}

const functions: FunctionDecl[] = [
  declareFunction(
    "cidr",
    globalOverload(
      "string_to_cidr",
      [StringType],
      CIDRType,
      ([s]) => stringToCIDR(s as CelValue),
      parsesStringArgument(),
    ),
  ),
  declareFunction(
    "containsIP",
    memberOverload(
      "cidr_contains_ip_string",
      [CIDRType, StringType],
      BoolType,
      ([cidr, s]) => containsIP(cidr as CelValue, stringToIP(s as CelValue)),
      containmentCost(false, true),
    ),
    memberOverload(
      "cidr_contains_ip_ip",
      [CIDRType, IPType],
      BoolType,
      ([cidr, ip]) => containsIP(cidr as CelValue, ip as CelValue),
      containmentCost(false, false),
    ),
  ),
  declareFunction(
    "containsCIDR",
    memberOverload(
      "cidr_contains_cidr_string",
      [CIDRType, StringType],
      BoolType,
      ([cidr, s]) => containsCIDR(cidr as CelValue, stringToCIDR(s as CelValue)),
      containmentCost(true, true),
    ),
    memberOverload(
      "cidr_contains_cidr",
      [CIDRType, CIDRType],
      BoolType,
      ([cidr, other]) => containsCIDR(cidr as CelValue, other as CelValue),
      containmentCost(true, false),
    ),
  ),
  declareFunction(
    "ip",
    memberOverload("cidr_ip", [CIDRType], IPType, ([cidr]) =>
      cidr instanceof CIDRValue ? new IPValue(cidr.prefix.addr) : noSuchOverload(),
    ),
  ),
  declareFunction(
    "prefixLength",
    memberOverload("cidr_prefix_length", [CIDRType], IntType, ([cidr]) =>
      cidr instanceof CIDRValue ? BigInt(cidr.prefix.bits) : noSuchOverload(),
    ),
  ),
  declareFunction(
    "masked",
    memberOverload("cidr_masked", [CIDRType], CIDRType, ([cidr]) =>
      cidr instanceof CIDRValue ? new CIDRValue(maskedPrefix(cidr.prefix)) : noSuchOverload(),
    ),
  ),
  declareFunction(
    "isCIDR",
    globalOverload(
      "is_cidr",
      [StringType],
      BoolType,
      ([s]) => (typeof s === "string" ? parseCIDR(s).ok : noSuchOverload()),
      parsesStringArgument(),
    ),
  ),
  declareFunction(
    "string",
    globalOverload("cidr_to_string", [CIDRType], StringType, ([cidr]) =>
      cidr instanceof CIDRValue ? prefixString(cidr.prefix) : noSuchOverload(),
    ),
  ),
];

export const cidrLibrary: CelLibrary = { name: "net.cidr", functions, types: [CIDRType] };
