// apimachinery's strict IsValidIP and IsValidCIDR (validation/ip.go), with their messages: an address or
// range that parses sloppily (IPv4 parts with leading zeros) but not strictly, an IPv4-mapped IPv6 form, or
// a form other than Go's canonical one is refused.
import { isIPv6 } from "node:net";
import { canonicalIP, numberToIP, parseCIDR } from "./ip-range.js";

/** netutils.ParseIPSloppy: IPv4 parts may carry leading zeros (read as decimal); the address as Go prints it. */
function sloppyIP(value: string): { printed: string; mapped: boolean } | undefined {
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(value)) {
    const parts = value.split(".").map(Number);
    if (parts.some((p) => p > 255)) return undefined;
    return { printed: parts.join("."), mapped: false };
  }
  if (!isIPv6(value) || value.includes("%")) return undefined;
  const printed = canonicalIP(value) as string;
  const mapped = /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(printed) || /^::ffff:[0-9a-f]{1,4}:[0-9a-f]{1,4}$/i.test(printed);
  return { printed: mapped ? numberToIP(BigInt(`0x${ipv4Tail(printed)}`), "IPv4") : printed, mapped };
}

function ipv4Tail(printed: string): string {
  const tail = printed.slice("::ffff:".length);
  if (tail.includes(".")) {
    return tail
      .split(".")
      .map((p) => Number(p).toString(16).padStart(2, "0"))
      .join("");
  }
  return tail
    .split(":")
    .map((g) => g.padStart(4, "0"))
    .join("");
}

function strictlyParses(value: string): boolean {
  return canonicalIP(value) !== undefined;
}

/** IsValidIP's messages for `value`; empty when valid. */
export function ipMessages(value: string): string[] {
  const ip = sloppyIP(value);
  if (ip === undefined) return ["must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"];
  const errs: string[] = [];
  if (!strictlyParses(value)) errs.push("must not have leading 0s");
  if (ip.mapped) errs.push("must not be an IPv4-mapped IPv6 address");
  if (errs.length > 0) return errs;
  return value === ip.printed ? [] : [`must be in canonical form ("${ip.printed}")`];
}

/** IsValidCIDR's messages for `value`; empty when valid. */
export function cidrMessages(value: string): string[] {
  const slash = value.indexOf("/");
  const address = slash < 0 ? "" : value.slice(0, slash);
  const length = slash < 0 ? "" : value.slice(slash + 1);
  const ip = sloppyIP(address);
  const bits = ip === undefined ? 0 : address.includes(":") ? 128 : 32;
  if (ip === undefined || !/^\d+$/.test(length) || Number(length) > bits) {
    return ["must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)"];
  }
  if (!strictlyParses(address) || (length.length > 1 && length.startsWith("0"))) {
    return ["must not have leading 0s in IP or prefix length"];
  }
  if (ip.mapped) return ["must not have an IPv4-mapped IPv6 address"];
  const range = parseCIDR(value);
  if (range === undefined) return ["must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)"];
  if (canonicalIP(address) !== range.cidr.slice(0, range.cidr.indexOf("/"))) {
    return ["must not have bits set beyond the prefix length"];
  }
  return value === range.cidr ? [] : [`must be in canonical form ("${range.cidr}")`];
}
