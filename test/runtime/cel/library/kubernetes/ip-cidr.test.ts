import { describe, expect, it } from "vitest";
import { CelError, type CelValue } from "../../../../../runtime/cel/common/values.js";
import { CIDRValue, cidrLibrary } from "../../../../../runtime/cel/library/kubernetes/cidr.js";
import { IPType, IPValue, ipLibrary } from "../../../../../runtime/cel/library/kubernetes/ip.js";
import { call, overload } from "./call-overload.js";

const ip = (s: string) => call(ipLibrary, "string_to_ip", s);
const cidr = (s: string) => call(cidrLibrary, "string_to_cidr", s);

function errorOf(v: CelValue): string {
  if (!(v instanceof CelError)) throw new Error(`expected an error, got ${String(v)}`);
  return v.message;
}

describe("ip library (kubernetes.net.ip)", () => {
  it("parses addresses into net.IP values and prints them canonically", () => {
    const v = ip("2001:DB8::68");
    expect(v).toBeInstanceOf(IPValue);
    expect((v as IPValue).celType).toBe(IPType);
    expect(call(ipLibrary, "ip_to_string", v)).toBe("2001:db8::68");
    expect(call(ipLibrary, "ip_to_string", ip("192.168.0.1"))).toBe("192.168.0.1");
  });

  it.each([
    [
      "192.168.0.1.0",
      'IP Address "192.168.0.1.0" parse error during conversion from string: ParseAddr("192.168.0.1.0"): IPv4 address too long',
    ],
    [
      "127.0.0.256",
      'IP Address "127.0.0.256" parse error during conversion from string: ParseAddr("127.0.0.256"): IPv4 field has value >255',
    ],
    [
      ":::1",
      'IP Address ":::1" parse error during conversion from string: ParseAddr(":::1"): each colon-separated field must have at least one digit (at ":1")',
    ],
    ["fe80::1%en0", 'IP address "fe80::1%en0" with zone value is not allowed'],
    ["::ffff:192.168.0.1", 'IPv4-mapped IPv6 address "::ffff:192.168.0.1" is not allowed'],
    ["::ffff:c0a8:1", 'IPv4-mapped IPv6 address "::ffff:c0a8:1" is not allowed'],
  ])("ip(%j) fails with Kubernetes' text", (input, message) => {
    expect(errorOf(ip(input))).toBe(message);
    expect(call(ipLibrary, "is_ip", input)).toBe(false);
  });

  it.each([
    ["127.0.0.1", true],
    ["2001:db8::abcd", true],
    ["2001:DB8::ABCD", false],
    ["2001:db8::0:0:0:abcd", false],
    ["2001:db8:0:0:0:0:0:1", false],
  ])("ip.isCanonical(%j) is %s", (input, canonical) => {
    expect(call(ipLibrary, "ip_is_canonical", input)).toBe(canonical);
  });

  it("refuses a non-address in ip.isCanonical with the parse error", () => {
    expect(errorOf(call(ipLibrary, "ip_is_canonical", "127.0.0.1.0"))).toMatch(/^IP Address "127.0.0.1.0" parse error/);
  });

  it.each([
    ["ip_family", "127.0.0.1", 4n],
    ["ip_family", "::1", 6n],
    ["ip_is_unspecified", "0.0.0.0", true],
    ["ip_is_unspecified", "::", true],
    ["ip_is_unspecified", "127.0.0.1", false],
    ["ip_is_loopback", "127.0.0.1", true],
    ["ip_is_loopback", "::1", true],
    ["ip_is_loopback", "192.168.0.1", false],
    ["ip_is_link_local_multicast", "224.0.0.1", true],
    ["ip_is_link_local_multicast", "224.0.1.1", false],
    ["ip_is_link_local_multicast", "ff02::1", true],
    ["ip_is_link_local_multicast", "fd00::1", false],
    ["ip_is_link_local_unicast", "169.254.169.254", true],
    ["ip_is_link_local_unicast", "fe80::1", true],
    ["ip_is_link_local_unicast", "fd80::1", false],
    ["ip_is_global_unicast", "192.168.0.1", true],
    ["ip_is_global_unicast", "255.255.255.255", false],
    ["ip_is_global_unicast", "2001:db8::abcd", true],
    ["ip_is_global_unicast", "ff00::1", false],
  ])("%s(%s) is %s", (id, input, expected) => {
    expect(call(ipLibrary, id, ip(input))).toBe(expected);
  });

  it("compares addresses by value", () => {
    expect((ip("2001:db8::1") as IPValue).equals(ip("2001:DB8::1"))).toBe(true);
    expect((ip("127.0.0.1") as IPValue).equals(ip("10.0.0.1"))).toBe(false);
    expect((ip("::") as IPValue).equals(ip("0.0.0.0"))).toBe(false);
  });

  it("answers no such overload for arguments of the wrong type", () => {
    expect(errorOf(call(ipLibrary, "ip_family", "127.0.0.1"))).toBe("no such overload");
    expect(errorOf(call(ipLibrary, "string_to_ip", 1n))).toBe("no such overload");
  });

  it("charges parsing by the length of the string", () => {
    const parse = overload(ipLibrary, "string_to_ip").cost;
    expect(parse?.estimate?.([{ min: 12, max: 12 }])).toEqual({ min: 2, max: 2 });
    expect(parse?.actual?.(["2001:db8::68"], null)).toBe(2);
    expect(overload(ipLibrary, "ip_is_canonical").cost?.actual?.(["2001:db8::68"], null)).toBe(3);
  });
});

describe("cidr library (net.cidr)", () => {
  it("parses prefixes keeping host bits, and prints them", () => {
    const v = cidr("192.168.0.1/24");
    expect(v).toBeInstanceOf(CIDRValue);
    expect(call(cidrLibrary, "cidr_to_string", v)).toBe("192.168.0.1/24");
    expect(call(cidrLibrary, "cidr_to_string", call(cidrLibrary, "cidr_masked", v))).toBe("192.168.0.0/24");
    expect(call(cidrLibrary, "cidr_prefix_length", v)).toBe(24n);
    expect(call(ipLibrary, "ip_to_string", call(cidrLibrary, "cidr_ip", v))).toBe("192.168.0.1");
    expect((call(cidrLibrary, "cidr_masked", cidr("192.168.0.0/24")) as CIDRValue).equals(cidr("192.168.0.0/24"))).toBe(
      true,
    );
    expect((call(cidrLibrary, "cidr_masked", cidr("192.168.0.1/24")) as CIDRValue).equals(cidr("192.168.0.1/24"))).toBe(
      false,
    );
  });

  it.each([
    [
      "192.168.0.0/",
      'network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix("192.168.0.0/"): bad bits after slash: ""',
    ],
    [
      "2001:db8::/",
      'network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix("2001:db8::/"): bad bits after slash: ""',
    ],
    [
      "fe80::1%en0/24",
      'network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix("fe80::1%en0/24"): IPv6 zones cannot be present in a prefix',
    ],
    [
      "::ffff:192.168.0.1/24",
      'network address parse error during conversion from string: IPv4-mapped IPv6 address "::ffff:192.168.0.1/24" is not allowed',
    ],
  ])("cidr(%j) fails with Kubernetes' text", (input, message) => {
    expect(errorOf(cidr(input))).toBe(message);
    expect(call(cidrLibrary, "is_cidr", input)).toBe(false);
  });

  it.each([
    ["192.168.0.0/24", "192.168.0.1", true],
    ["192.168.0.0/24", "192.168.1.1", false],
    ["2001:db8::/32", "2001:db8::1", true],
    ["2001:db8::/32", "2001:dc8::1", false],
    ["2001:db8::/32", "192.168.1.1", false],
    ["192.168.1.1/32", "2001:db8::1", false],
  ])("cidr(%j).containsIP(%j) is %s, for an IP and a string", (range, address, expected) => {
    expect(call(cidrLibrary, "cidr_contains_ip_ip", cidr(range), ip(address))).toBe(expected);
    expect(call(cidrLibrary, "cidr_contains_ip_string", cidr(range), address)).toBe(expected);
  });

  it.each([
    ["192.168.0.0/24", "192.168.0.0/25", true],
    ["192.168.0.0/24", "192.168.0.1/32", true],
    ["192.168.0.0/24", "192.168.0.0/23", false],
    ["192.168.0.0/16", "192.168.10.0/24", true],
    ["192.168.1.0/24", "192.168.2.0/24", false],
    ["10.0.0.0/8", "10.0.0.0/8", true],
    ["2001:db8::/32", "2001:db8::/33", true],
    ["2001:db8::/32", "2001:db8::/31", false],
    ["10.0.0.0/8", "::1/128", false],
  ])("cidr(%j).containsCIDR(%j) is %s, for a CIDR and a string", (range, other, expected) => {
    expect(call(cidrLibrary, "cidr_contains_cidr", cidr(range), cidr(other))).toBe(expected);
    expect(call(cidrLibrary, "cidr_contains_cidr_string", cidr(range), other)).toBe(expected);
  });

  it("reports a bad string operand as Kubernetes does", () => {
    expect(errorOf(call(cidrLibrary, "cidr_contains_ip_string", cidr("10.0.0.0/8"), "not-an-ip"))).toBe(
      "no such overload",
    );
    expect(errorOf(call(cidrLibrary, "cidr_contains_cidr_string", cidr("10.0.0.0/8"), "not-a-cidr"))).toMatch(
      /^network address parse error during conversion from string: network address parse error/,
    );
  });

  it("charges containment by the CIDR's bytes and any string parsed (cost.go)", () => {
    const ipString = overload(cidrLibrary, "cidr_contains_ip_string").cost;
    expect(ipString?.estimate?.([undefined, { min: 7, max: 45 }])).toEqual({ min: 2, max: 9 });
    expect(ipString?.actual?.([cidr("192.168.0.0/24"), "192.168.0.1"], true)).toBe(1 + 2);
    const ipObject = overload(cidrLibrary, "cidr_contains_ip_ip").cost;
    expect(ipObject?.estimate?.([undefined, undefined])).toEqual({ min: 1, max: 4 });
    expect(ipObject?.actual?.([cidr("2001:db8::/128"), ip("2001:db8::")], true)).toBe(4);
    const cidrObject = overload(cidrLibrary, "cidr_contains_cidr").cost;
    expect(cidrObject?.estimate?.([undefined, undefined])).toEqual({ min: 3, max: 7 });
    expect(cidrObject?.actual?.([cidr("10.0.0.0/8"), cidr("10.0.0.0/16")], true)).toBe(1 + 1 + 1);
    const cidrString = overload(cidrLibrary, "cidr_contains_cidr_string").cost;
    expect(cidrString?.estimate?.([undefined, { min: 0, max: 43 }])).toEqual({ min: 3, max: 12 });
    expect(cidrString?.actual?.([cidr("10.0.0.0/8"), "10.0.0.0/16"], true)).toBe(1 + 1 + 1 + 2);
  });
});
