import { describe, expect, it } from "vitest";
import {
  addrString,
  isGlobalUnicast,
  isLinkLocalMulticast,
  isLinkLocalUnicast,
  isLoopback,
  isUnspecified,
  maskedPrefix,
  parseAddr,
  parsePrefix,
  prefixContains,
  prefixContainsPrefix,
  prefixString,
} from "../../../../../runtime/cel/library/kubernetes/netip.js";

function addr(s: string) {
  const parsed = parseAddr(s);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value;
}

function prefix(s: string) {
  const parsed = parsePrefix(s);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value;
}

describe("netip.ParseAddr and Addr.String", () => {
  it.each([
    ["192.168.0.1", "192.168.0.1"],
    ["0.0.0.0", "0.0.0.0"],
    ["2001:db8::68", "2001:db8::68"],
    ["2001:DB8::68", "2001:db8::68"],
    ["2001:db8:0:0:0:0:0:1", "2001:db8::1"],
    ["::", "::"],
    ["::1", "::1"],
    ["1::", "1::"],
    ["1:0:0:2:0:0:0:3", "1:0:0:2::3"],
    ["1:0:2:3:4:5:6:7", "1:0:2:3:4:5:6:7"],
    ["::1.2.3.4", "::102:304"],
    ["::ffff:1.2.3.4", "::ffff:1.2.3.4"],
    ["::ffff:c0a8:1", "::ffff:192.168.0.1"],
    ["fe80::1%en0", "fe80::1%en0"],
    ["0:0:0:0:0:0:0:0", "::"],
  ])("%s prints as %s", (input, printed) => {
    expect(addrString(addr(input))).toBe(printed);
  });

  it.each([
    ["192.168.0.1.0", 'ParseAddr("192.168.0.1.0"): IPv4 address too long'],
    ["192.168.0", 'ParseAddr("192.168.0"): IPv4 address too short'],
    ["192.168.0.256", 'ParseAddr("192.168.0.256"): IPv4 field has value >255'],
    ["192.168.00.1", 'ParseAddr("192.168.00.1"): IPv4 field has octet with leading zero'],
    ["192..0.1", 'ParseAddr("192..0.1"): IPv4 field must have at least one digit (at ".0.1")'],
    ["1.2.3.x", 'ParseAddr("1.2.3.x"): unexpected character (at "x")'],
    ["2001:db8:::68", 'ParseAddr("2001:db8:::68"): each colon-separated field must have at least one digit (at ":68")'],
    ["12345::", 'ParseAddr("12345::"): each colon-separated field must have at most 4 hex digits (at "12345::")'],
    ["1:2", 'ParseAddr("1:2"): address string too short'],
    ["1:2:3:4:5:6:7:8:9", 'ParseAddr("1:2:3:4:5:6:7:8:9"): trailing garbage after address (at "9")'],
    ["1::2::3", 'ParseAddr("1::2::3"): multiple :: in address (at ":3")'],
    ["1:2:3:4::5:6:7:8", 'ParseAddr("1:2:3:4::5:6:7:8"): the :: must expand to at least one field of zeros'],
    ["1:2:", 'ParseAddr("1:2:"): colon must be followed by more characters (at ":")'],
    ["fe80::1%", 'ParseAddr("fe80::1%"): zone must be a non-empty string'],
    ["%en0", 'ParseAddr("%en0"): missing IPv6 address'],
    ["example", 'ParseAddr("example"): unable to parse IP'],
    ["", 'ParseAddr(""): unable to parse IP'],
    [
      "1::3:4:5:6:7:8:1.2.3.4",
      'ParseAddr("1::3:4:5:6:7:8:1.2.3.4"): too many hex fields to fit an embedded IPv4 at the end of the address (at "1.2.3.4")',
    ],
    [
      "1:2:3:4:5:6:7:1.2.3.4",
      'ParseAddr("1:2:3:4:5:6:7:1.2.3.4"): embedded IPv4 address must replace the final 2 fields of the address (at "1.2.3.4")',
    ],
    [
      "1:1.2.3.4",
      'ParseAddr("1:1.2.3.4"): embedded IPv4 address must replace the final 2 fields of the address (at "1.2.3.4")',
    ],
    ["::1.2.3", 'ParseAddr("::1.2.3"): IPv4 address too short'],
  ])("%s is refused", (input, error) => {
    expect(parseAddr(input)).toEqual({ ok: false, error });
  });

  it("classifies addresses as netip does", () => {
    expect(isUnspecified(addr("0.0.0.0"))).toBe(true);
    expect(isUnspecified(addr("::"))).toBe(true);
    expect(isUnspecified(addr("::1"))).toBe(false);
    expect(isLoopback(addr("127.1.2.3"))).toBe(true);
    expect(isLoopback(addr("::1"))).toBe(true);
    expect(isLoopback(addr("::ffff:127.0.0.1"))).toBe(true);
    expect(isLinkLocalMulticast(addr("224.0.0.251"))).toBe(true);
    expect(isLinkLocalMulticast(addr("ff02::1"))).toBe(true);
    expect(isLinkLocalMulticast(addr("ff05::1"))).toBe(false);
    expect(isLinkLocalUnicast(addr("169.254.1.1"))).toBe(true);
    expect(isLinkLocalUnicast(addr("febf::1"))).toBe(true);
    expect(isLinkLocalUnicast(addr("fec0::1"))).toBe(false);
    expect(isGlobalUnicast(addr("10.0.0.1"))).toBe(true);
    expect(isGlobalUnicast(addr("fd00::1"))).toBe(true);
    expect(isGlobalUnicast(addr("255.255.255.255"))).toBe(false);
    expect(isGlobalUnicast(addr("239.0.0.1"))).toBe(false);
    expect(isGlobalUnicast(addr("::"))).toBe(false);
  });
});

describe("netip.ParsePrefix", () => {
  it.each([
    ["192.168.0.0/24", "192.168.0.0/24"],
    ["192.168.0.1/24", "192.168.0.1/24"],
    ["2001:DB8::/32", "2001:db8::/32"],
    ["0.0.0.0/0", "0.0.0.0/0"],
    ["::/128", "::/128"],
  ])("%s prints as %s", (input, printed) => {
    expect(prefixString(prefix(input))).toBe(printed);
  });

  it.each([
    ["192.168.0.0", "netip.ParsePrefix(\"192.168.0.0\"): no '/'"],
    ["192.168.0.0/", 'netip.ParsePrefix("192.168.0.0/"): bad bits after slash: ""'],
    ["192.168.0.0/08", 'netip.ParsePrefix("192.168.0.0/08"): bad bits after slash: "08"'],
    ["192.168.0.0/+8", 'netip.ParsePrefix("192.168.0.0/+8"): bad bits after slash: "+8"'],
    ["192.168.0.0/33", 'netip.ParsePrefix("192.168.0.0/33"): prefix length out of range'],
    ["::/129", 'netip.ParsePrefix("::/129"): prefix length out of range'],
    [
      "192.168.0.0/99999999999999999999",
      'netip.ParsePrefix("192.168.0.0/99999999999999999999"): bad bits after slash: "99999999999999999999"',
    ],
    ["fe80::1%en0/64", 'netip.ParsePrefix("fe80::1%en0/64"): IPv6 zones cannot be present in a prefix'],
    ["1.2.3/8", 'netip.ParsePrefix("1.2.3/8"): ParseAddr("1.2.3"): IPv4 address too short'],
  ])("%s is refused", (input, error) => {
    expect(parsePrefix(input)).toEqual({ ok: false, error });
  });

  it("masks, and tests containment by family and network bits", () => {
    expect(prefixString(maskedPrefix(prefix("192.168.1.5/24")))).toBe("192.168.1.0/24");
    expect(prefixString(maskedPrefix(prefix("2001:db8:1::/32")))).toBe("2001:db8::/32");
    expect(prefixString(maskedPrefix(prefix("10.255.255.255/9")))).toBe("10.128.0.0/9");
    expect(prefixContains(prefix("10.0.0.0/8"), addr("10.255.255.255"))).toBe(true);
    expect(prefixContains(prefix("10.0.0.0/8"), addr("11.0.0.0"))).toBe(false);
    expect(prefixContains(prefix("0.0.0.0/0"), addr("::1"))).toBe(false);
    expect(prefixContains(prefix("::/0"), addr("1.2.3.4"))).toBe(false);
    expect(prefixContainsPrefix(prefix("192.168.0.0/16"), prefix("192.168.0.1/32"))).toBe(true);
    expect(prefixContainsPrefix(prefix("10.0.0.0/8"), prefix("10.1.0.0/16"))).toBe(true);
    expect(prefixContainsPrefix(prefix("10.0.0.0/8"), prefix("0.0.0.0/4"))).toBe(false);
    expect(prefixContainsPrefix(prefix("10.0.0.0/8"), prefix("11.0.0.0/8"))).toBe(false);
    expect(prefixContainsPrefix(prefix("10.0.0.0/8"), prefix("::1/128"))).toBe(false);
  });
});
