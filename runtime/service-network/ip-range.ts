// IP addresses and CIDR ranges as numbers, for both families: parsing as Go's net package reads them (IPv4
// dotted quads without leading zeros; IPv6 in any form, printed compressed), membership, and offsets.
import { isIPv4, isIPv6 } from "node:net";

export type IPFamily = "IPv4" | "IPv6";

export interface IPRange {
  family: IPFamily;
  /** The network address (host bits zero). */
  network: bigint;
  prefixLength: number;
  /** Address bits of the family: 32 or 128. */
  bits: number;
  /** The range as Go prints it (`10.0.0.0/24`). */
  cidr: string;
}

function ipv4ToNumber(ip: string): bigint {
  return ip.split(".").reduce((n, part) => (n << 8n) | BigInt(Number(part)), 0n);
}

function ipv6ToNumber(ip: string): bigint {
  let text = ip;
  // An embedded IPv4 tail (::ffff:1.2.3.4) becomes two groups.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted !== null) {
    const v4 = ipv4ToNumber(dotted[1] as string);
    text = `${text.slice(0, dotted.index)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const headGroups = head === "" ? [] : head.split(":");
  const tailGroups = tail === undefined || tail === "" ? [] : tail.split(":");
  const zeros = tail === undefined ? [] : new Array<string>(8 - headGroups.length - tailGroups.length).fill("0");
  return [...headGroups, ...zeros, ...tailGroups].reduce((n, group) => (n << 16n) | BigInt(`0x${group}`), 0n);
}

/** The family of an address in Go's accepted forms, or undefined when it is not one. */
export function familyOf(ip: string): IPFamily | undefined {
  if (isIPv4(ip) && ip.split(".").every((part) => part === "0" || !part.startsWith("0"))) return "IPv4";
  if (isIPv6(ip) && !ip.includes("%")) return "IPv6";
  return undefined;
}

export function ipToNumber(ip: string): bigint {
  return familyOf(ip) === "IPv4" ? ipv4ToNumber(ip) : ipv6ToNumber(ip);
}

export function numberToIP(value: bigint, family: IPFamily): string {
  if (family === "IPv4") {
    return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join(".");
  }
  const groups: string[] = [];
  for (let shift = 112n; shift >= 0n; shift -= 16n) groups.push(((value >> shift) & 0xffffn).toString(16));
  // The URL parser prints IPv6 hosts compressed and lower-case, as Go's String does (RFC 5952).
  return new URL(`http://[${groups.join(":")}]`).hostname.slice(1, -1);
}

/** The address as Go prints it (IPv6 compressed), or undefined when it does not parse. */
export function canonicalIP(ip: string): string | undefined {
  const family = familyOf(ip);
  return family === undefined ? undefined : numberToIP(ipToNumber(ip), family);
}

/** Go's net.ParseCIDR: an address, a slash and a prefix length; the range is the masked network. */
export function parseCIDR(text: string): IPRange | undefined {
  const slash = text.indexOf("/");
  if (slash < 0) return undefined;
  const address = text.slice(0, slash);
  const lengthText = text.slice(slash + 1);
  const family = familyOf(address);
  if (family === undefined || !/^\d{1,3}$/.test(lengthText)) return undefined;
  const bits = family === "IPv4" ? 32 : 128;
  const prefixLength = Number(lengthText);
  if (prefixLength > bits) return undefined;
  const hostBits = BigInt(bits - prefixLength);
  const network = (ipToNumber(address) >> hostBits) << hostBits;
  return { family, network, prefixLength, bits, cidr: `${numberToIP(network, family)}/${prefixLength}` };
}

/** Number of addresses the range spans. */
export function rangeSize(range: IPRange): bigint {
  return 1n << BigInt(range.bits - range.prefixLength);
}

/** The first address services may use: the one after the network address. */
export function firstAddress(range: IPRange): bigint {
  return range.network + 1n;
}

/** The last address services may use: IPv4 keeps its broadcast address out. */
export function lastAddress(range: IPRange): bigint {
  const last = range.network + rangeSize(range) - 1n;
  return range.family === "IPv4" ? last - 1n : last;
}

/** The address is one services may use in the range: neither its network address nor an IPv4 broadcast. */
export function containsServiceIP(range: IPRange, ip: string): boolean {
  if (familyOf(ip) !== range.family) return false;
  const n = ipToNumber(ip);
  return n >= firstAddress(range) && n <= lastAddress(range);
}

/** Addresses at the start of the range kept for static assignment: min(max(16, size/16), 256), 0 for tiny ranges. */
export function staticBandSize(range: IPRange): bigint {
  const size = rangeSize(range);
  if (size <= 16n) return 0n;
  const band = size / 16n;
  if (band < 16n) return 16n;
  return band > 256n ? 256n : band;
}
