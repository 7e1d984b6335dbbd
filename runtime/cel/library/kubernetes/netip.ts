// IP addresses and prefixes as Go's net/netip parses, prints and classifies them, because Kubernetes'
// CEL network libraries are thin wrappers over netip: the same strings are accepted, the same canonical
// forms printed (RFC 5952 for IPv6) and the same parse errors reported.
import { goQuote } from "../../../errors/go-format.js";
import { INT64_MAX } from "../../common/values.js";
import type { Parsed } from "./parsed.js";

/** An IPv4 or IPv6 address; an IPv4 address keeps its IPv4-mapped form in `bytes` (::ffff:a.b.c.d), as netip does. */
export interface Addr {
  readonly is4: boolean;
  /** 16 bytes, network order. */
  readonly bytes: Uint8Array;
  /** IPv6 scoped addressing zone ("" when absent). */
  readonly zone: string;
}

/** A network prefix: an address and a bit length; host bits are kept unless masked. */
export interface Prefix {
  readonly addr: Addr;
  readonly bits: number;
}

function fail<T>(error: string): Parsed<T> {
  return { ok: false, error };
}

function addrError<T>(input: string, msg: string, at?: string): Parsed<T> {
  const where = at ? ` (at ${goQuote(at)})` : "";
  return fail(`ParseAddr(${goQuote(input)}): ${msg}${where}`);
}

function addrFrom4(a: number, b: number, c: number, d: number): Addr {
  const bytes = new Uint8Array(16);
  bytes[10] = 0xff;
  bytes[11] = 0xff;
  bytes[12] = a;
  bytes[13] = b;
  bytes[14] = c;
  bytes[15] = d;
  return { is4: true, bytes, zone: "" };
}

/** Go's netip.ParseAddr: dotted decimal IPv4, IPv6 (optionally with an embedded IPv4 tail and a zone). */
export function parseAddr(s: string): Parsed<Addr> {
  for (let i = 0; i < s.length; i++) {
    switch (s[i]) {
      case ".":
        return parseIPv4(s);
      case ":":
        return parseIPv6(s);
      case "%":
        return addrError(s, "missing IPv6 address");
    }
  }
  return addrError(s, "unable to parse IP");
}

/** Parses the dotted quad in `input.slice(from, to)` into `out[at..at+4]`; errors name the whole input. */
function parseIPv4Fields(input: string, from: number, to: number, out: Uint8Array, at: number): string | undefined {
  const s = input.slice(from, to);
  let val = 0;
  let pos = 0;
  let digits = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39) {
      if (digits === 1 && val === 0) return "IPv4 field has octet with leading zero";
      val = val * 10 + (c - 0x30);
      digits++;
      if (val > 255) return "IPv4 field has value >255";
    } else if (c === 0x2e) {
      if (i === 0 || i === s.length - 1 || s[i - 1] === ".")
        return `IPv4 field must have at least one digit\0${s.slice(i)}`;
      if (pos === 3) return "IPv4 address too long";
      out[at + pos] = val;
      pos++;
      val = 0;
      digits = 0;
    } else {
      return `unexpected character\0${s.slice(i)}`;
    }
  }
  if (pos < 3) return "IPv4 address too short";
  out[at + 3] = val;
  return undefined;
}

/** A field error from parseIPv4Fields ("message\0at") as a ParseAddr error for `input`. */
function fieldsError<T>(input: string, error: string): Parsed<T> {
  const [msg, at] = error.split("\0");
  return addrError(input, msg as string, at);
}

function parseIPv4(s: string): Parsed<Addr> {
  const out = new Uint8Array(4);
  const error = parseIPv4Fields(s, 0, s.length, out, 0);
  if (error !== undefined) return fieldsError(s, error);
  return { ok: true, value: addrFrom4(out[0] as number, out[1] as number, out[2] as number, out[3] as number) };
}

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10;
  return -1;
}

function parseIPv6(input: string): Parsed<Addr> {
  let s = input;
  let zone = "";
  const percent = s.indexOf("%");
  if (percent !== -1) {
    zone = s.slice(percent + 1);
    s = s.slice(0, percent);
    if (zone === "") return addrError(input, "zone must be a non-empty string");
  }
  const ip = new Uint8Array(16);
  let ellipsis = -1;
  if (s.length >= 2 && s[0] === ":" && s[1] === ":") {
    ellipsis = 0;
    s = s.slice(2);
    if (s.length === 0) return { ok: true, value: { is4: false, bytes: ip, zone } };
  }
  let i = 0;
  while (i < 16) {
    let off = 0;
    let acc = 0;
    for (; off < s.length; off++) {
      const h = hexValue(s.charCodeAt(off));
      if (h < 0) break;
      if (off > 3) return addrError(input, "each colon-separated field must have at most 4 hex digits", s);
      acc = acc * 16 + h;
    }
    if (off === 0) return addrError(input, "each colon-separated field must have at least one digit", s);
    if (off < s.length && s[off] === ".") {
      if (ellipsis < 0 && i !== 12) {
        return addrError(input, "embedded IPv4 address must replace the final 2 fields of the address", s);
      }
      if (i + 4 > 16) {
        return addrError(input, "too many hex fields to fit an embedded IPv4 at the end of the address", s);
      }
      const end = zone.length > 0 ? input.length - zone.length - 1 : input.length;
      const error = parseIPv4Fields(input, end - s.length, end, ip, i);
      if (error !== undefined) return fieldsError(input, error);
      s = "";
      i += 4;
      break;
    }
    ip[i] = acc >> 8;
    ip[i + 1] = acc & 0xff;
    i += 2;
    s = s.slice(off);
    if (s.length === 0) break;
    if (s[0] !== ":") return addrError(input, "unexpected character, want colon", s);
    if (s.length === 1) return addrError(input, "colon must be followed by more characters", s);
    s = s.slice(1);
    if (s[0] === ":") {
      if (ellipsis >= 0) return addrError(input, "multiple :: in address", s);
      ellipsis = i;
      s = s.slice(1);
      if (s.length === 0) break;
    }
  }
  if (s.length !== 0) return addrError(input, "trailing garbage after address", s);
  if (i < 16) {
    if (ellipsis < 0) return addrError(input, "address string too short");
    const n = 16 - i;
    for (let j = i - 1; j >= ellipsis; j--) ip[j + n] = ip[j] as number;
    ip.fill(0, ellipsis, ellipsis + n);
  } else if (ellipsis >= 0) {
    return addrError(input, "the :: must expand to at least one field of zeros");
  }
  return { ok: true, value: { is4: false, bytes: ip, zone } };
}

/** An IPv6 address holding an IPv4-mapped address (::ffff:a.b.c.d). */
export function is4In6(a: Addr): boolean {
  if (a.is4) return false;
  for (let i = 0; i < 10; i++) if (a.bytes[i] !== 0) return false;
  return a.bytes[10] === 0xff && a.bytes[11] === 0xff;
}

/** The address with an IPv4-mapped IPv6 form turned into IPv4 (netip's Unmap). */
function unmap(a: Addr): Addr {
  return is4In6(a) ? { is4: true, bytes: a.bytes, zone: "" } : a;
}

export function addrBitLen(a: Addr): number {
  return a.is4 ? 32 : 128;
}

export function addrEquals(a: Addr, b: Addr): boolean {
  if (a.is4 !== b.is4 || a.zone !== b.zone) return false;
  for (let i = 0; i < 16; i++) if (a.bytes[i] !== b.bytes[i]) return false;
  return true;
}

function word(a: Addr, i: number): number {
  return ((a.bytes[2 * i] as number) << 8) | (a.bytes[2 * i + 1] as number);
}

function dotted(a: Addr): string {
  return `${a.bytes[12]}.${a.bytes[13]}.${a.bytes[14]}.${a.bytes[15]}`;
}

/** netip's Addr.String: dotted decimal, RFC 5952 IPv6, `::ffff:a.b.c.d` for mapped addresses, `%zone`. */
export function addrString(a: Addr): string {
  if (a.is4) return dotted(a);
  const zone = a.zone ? `%${a.zone}` : "";
  if (is4In6(a)) return `::ffff:${dotted(a)}${zone}`;
  let zeroStart = -1;
  let zeroEnd = -1;
  for (let i = 0; i < 8; i++) {
    let j = i;
    while (j < 8 && word(a, j) === 0) j++;
    if (j - i >= 2 && j - i > zeroEnd - zeroStart) {
      zeroStart = i;
      zeroEnd = j;
    }
  }
  let out = "";
  for (let i = 0; i < 8; i++) {
    if (i === zeroStart) {
      out += "::";
      i = zeroEnd;
      if (i >= 8) break;
    } else if (i > 0) {
      out += ":";
    }
    out += word(a, i).toString(16);
  }
  return out + zone;
}

export function isUnspecified(a: Addr): boolean {
  if (a.zone !== "") return false;
  const from = a.is4 ? 12 : 0;
  for (let i = from; i < 16; i++) if (a.bytes[i] !== 0) return false;
  return true;
}

export function isLoopback(addr: Addr): boolean {
  const a = unmap(addr);
  if (a.is4) return a.bytes[12] === 127;
  for (let i = 0; i < 15; i++) if (a.bytes[i] !== 0) return false;
  return a.bytes[15] === 1;
}

export function isMulticast(addr: Addr): boolean {
  const a = unmap(addr);
  if (a.is4) return ((a.bytes[12] as number) & 0xf0) === 0xe0;
  return a.bytes[0] === 0xff;
}

export function isLinkLocalMulticast(addr: Addr): boolean {
  const a = unmap(addr);
  if (a.is4) return a.bytes[12] === 224 && a.bytes[13] === 0 && a.bytes[14] === 0;
  return (word(a, 0) & 0xff0f) === 0xff02;
}

export function isLinkLocalUnicast(addr: Addr): boolean {
  const a = unmap(addr);
  if (a.is4) return a.bytes[12] === 169 && a.bytes[13] === 254;
  return (word(a, 0) & 0xffc0) === 0xfe80;
}

/** netip's IsGlobalUnicast: not unspecified, broadcast, loopback, multicast or link-local (private ranges count). */
export function isGlobalUnicast(addr: Addr): boolean {
  const a = unmap(addr);
  if (a.is4) {
    const b = a.bytes;
    const broadcast = b[12] === 255 && b[13] === 255 && b[14] === 255 && b[15] === 255;
    if (broadcast || isUnspecified(a)) return false;
  } else if (isUnspecified(a)) {
    return false;
  }
  return !isLoopback(a) && !isMulticast(a) && !isLinkLocalUnicast(a);
}

/** The prefix length as ParsePrefix reads it: decimal digits, no sign, no leading zero, within int64. */
function prefixBits(s: string): number | undefined {
  if (!/^(0|[1-9][0-9]*)$/.test(s) || BigInt(s) > INT64_MAX) return undefined;
  return Number(s);
}

/** Go's netip.ParsePrefix: `addr/bits`, no zone, bits within the family's length; host bits are kept. */
export function parsePrefix(s: string): Parsed<Prefix> {
  const where = `netip.ParsePrefix(${goQuote(s)})`;
  const slash = s.lastIndexOf("/");
  if (slash < 0) return fail(`${where}: no '/'`);
  const addr = parseAddr(s.slice(0, slash));
  if (!addr.ok) return fail(`${where}: ${addr.error}`);
  if (!addr.value.is4 && addr.value.zone !== "") return fail(`${where}: IPv6 zones cannot be present in a prefix`);
  const bitsText = s.slice(slash + 1);
  const bits = prefixBits(bitsText);
  if (bits === undefined) return fail(`${where}: bad bits after slash: ${goQuote(bitsText)}`);
  if (bits > addrBitLen(addr.value)) return fail(`${where}: prefix length out of range`);
  return { ok: true, value: { addr: addr.value, bits } };
}

/** The first `bits` bits of the address kept, the rest zeroed. */
function maskAddr(a: Addr, bits: number): Addr {
  const bytes = new Uint8Array(a.bytes);
  const keep = a.is4 ? bits + 96 : bits;
  for (let i = 0; i < 16; i++) {
    const bitsHere = Math.min(8, Math.max(0, keep - i * 8));
    bytes[i] = (bytes[i] as number) & ((0xff << (8 - bitsHere)) & 0xff);
  }
  return { is4: a.is4, bytes, zone: "" };
}

/** netip's Prefix.Masked: the canonical network address. */
export function maskedPrefix(p: Prefix): Prefix {
  return { addr: maskAddr(p.addr, p.bits), bits: p.bits };
}

export function prefixEquals(a: Prefix, b: Prefix): boolean {
  return a.bits === b.bits && addrEquals(a.addr, b.addr);
}

export function prefixString(p: Prefix): string {
  return `${addrString(p.addr)}/${p.bits}`;
}

/** netip's Prefix.Contains: same family (a mapped address is IPv6), no zone, equal in the prefix bits. */
export function prefixContains(p: Prefix, a: Addr): boolean {
  if (a.zone !== "" || p.addr.is4 !== a.is4) return false;
  return addrEquals(maskAddr(a, p.bits), maskAddr(p.addr, p.bits));
}

/** Kubernetes' containsCIDR: the other prefix lies inside this one (same family, at least as long, same network). */
export function prefixContainsPrefix(p: Prefix, other: Prefix): boolean {
  if (p.addr.is4 !== other.addr.is4 || p.bits > other.bits) return false;
  return addrEquals(maskAddr(other.addr, p.bits), maskAddr(p.addr, p.bits));
}
