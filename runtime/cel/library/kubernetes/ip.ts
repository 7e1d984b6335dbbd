// Kubernetes' IP library (k8s.io/apiserver/pkg/cel/library/ip.go, "kubernetes.net.ip", from 1.30): the
// `net.IP` type, `ip(string)`, `isIP`, `ip.isCanonical`, the family and address-class accessors and
// `string(ip)`. Addresses parse strictly, as Go's netip does, and neither zones nor IPv4-mapped IPv6
// addresses are accepted.

import { goQuote } from "../../../errors/go-format.js";
import { BoolType, IntType, opaqueType, StringType } from "../../common/cel-types.js";
import type { CelLibrary, FunctionDecl, OverloadImpl } from "../../common/decls.js";
import { CelError, CelOpaque, type CelValue } from "../../common/values.js";
import { parsesStringArgument } from "../kubernetes-cost.js";
import { declareFunction, globalOverload, memberOverload } from "../standard/declare.js";
import { noSuchOverload } from "../standard/overload-errors.js";
import {
  type Addr,
  addrBitLen,
  addrEquals,
  addrString,
  is4In6,
  isGlobalUnicast,
  isLinkLocalMulticast,
  isLinkLocalUnicast,
  isLoopback,
  isUnspecified,
  parseAddr,
} from "./netip.js";
import { type Parsed, parsedValue } from "./parsed.js";

export const IPType = opaqueType("net.IP");

/** An IP address value. */
export class IPValue extends CelOpaque {
  readonly celType = IPType;
  constructor(readonly addr: Addr) {
    super();
  }
  equals(other: CelValue): boolean {
    return other instanceof IPValue && addrEquals(this.addr, other.addr);
  }
  /** The address length in bytes, which cost tracking uses as its size. */
  costSize(): number {
    return Math.ceil(addrBitLen(this.addr) / 8);
  }
  override toString(): string {
    return addrString(this.addr);
  }
}

/** Kubernetes' parseIPAddr: netip parsing, then no zone and no IPv4-mapped IPv6 address. */
export function parseIPAddress(raw: string): Parsed<Addr> {
  const parsed = parseAddr(raw);
  if (!parsed.ok) {
    return {
      ok: false,
      error: `IP Address ${goQuote(raw)} parse error during conversion from string: ${parsed.error}`,
    };
  }
  if (parsed.value.zone !== "")
    return { ok: false, error: `IP address ${goQuote(raw)} with zone value is not allowed` };
  if (is4In6(parsed.value)) return { ok: false, error: `IPv4-mapped IPv6 address ${goQuote(raw)} is not allowed` };
  return parsed;
}

/** `ip(string)`: the address, or the parse error. */
export function stringToIP(s: CelValue): CelValue {
  return parsedValue(s, parseIPAddress, IPValue);
}

function ipPredicate(test: (addr: Addr) => boolean): OverloadImpl {
  return ([ip]) => (ip instanceof IPValue ? test(ip.addr) : noSuchOverload());
}

const functions: FunctionDecl[] = [
  declareFunction(
    "ip",
    globalOverload("string_to_ip", [StringType], IPType, ([s]) => stringToIP(s as CelValue), parsesStringArgument()),
  ),
  declareFunction(
    "family",
    memberOverload("ip_family", [IPType], IntType, ([ip]) =>
      ip instanceof IPValue ? (ip.addr.is4 ? 4n : 6n) : noSuchOverload(),
    ),
  ),
  declareFunction(
    "ip.isCanonical",
    globalOverload(
      "ip_is_canonical",
      [StringType],
      BoolType,
      ([s]) => {
        if (typeof s !== "string") return noSuchOverload();
        const parsed = parseIPAddress(s);
        return parsed.ok ? addrString(parsed.value) === s : new CelError(parsed.error);
      },
      parsesStringArgument(2),
    ),
  ),
  declareFunction("isUnspecified", memberOverload("ip_is_unspecified", [IPType], BoolType, ipPredicate(isUnspecified))),
  declareFunction("isLoopback", memberOverload("ip_is_loopback", [IPType], BoolType, ipPredicate(isLoopback))),
  declareFunction(
    "isLinkLocalMulticast",
    memberOverload("ip_is_link_local_multicast", [IPType], BoolType, ipPredicate(isLinkLocalMulticast)),
  ),
  declareFunction(
    "isLinkLocalUnicast",
    memberOverload("ip_is_link_local_unicast", [IPType], BoolType, ipPredicate(isLinkLocalUnicast)),
  ),
  declareFunction(
    "isGlobalUnicast",
    memberOverload("ip_is_global_unicast", [IPType], BoolType, ipPredicate(isGlobalUnicast)),
  ),
  declareFunction(
    "isIP",
    globalOverload(
      "is_ip",
      [StringType],
      BoolType,
      ([s]) => (typeof s === "string" ? parseIPAddress(s).ok : noSuchOverload()),
      parsesStringArgument(),
    ),
  ),
  declareFunction(
    "string",
    globalOverload("ip_to_string", [IPType], StringType, ([ip]) =>
      ip instanceof IPValue ? addrString(ip.addr) : noSuchOverload(),
    ),
  ),
];

export const ipLibrary: CelLibrary = { name: "kubernetes.net.ip", functions, types: [IPType] };
