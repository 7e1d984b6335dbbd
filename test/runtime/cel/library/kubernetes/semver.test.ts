import { describe, expect, it } from "vitest";
import { CelError, type CelValue } from "../../../../../runtime/cel/common/values.js";
import { SemverValue, semverLibrary } from "../../../../../runtime/cel/library/kubernetes/semver.js";
import { call } from "./call-overload.js";

const semver = (s: string) => call(semverLibrary, "string_to_semver", s);
const normalized = (s: string) => call(semverLibrary, "string_bool_to_semver", s, true);
const op = (id: string, ...args: CelValue[]) => call(semverLibrary, id, ...args);

function errorOf(v: CelValue): string {
  if (!(v instanceof CelError)) throw new Error(`expected an error, got ${String(v)}`);
  return v.message;
}

describe("semver library (kubernetes.Semver)", () => {
  it.each([
    ["1.0.0", true],
    ["0.1.0-alpha.1", true],
    ["1.2.3-rc.1+build.5", true],
    ["1.2.3+build", true],
    ["v1.0.0", false],
    ["1.0", false],
    ["01.1.1", false],
    ["hello", false],
    ["200K", false],
  ])("isSemver(%j) is %s", (input, valid) => {
    expect(op("is_semver_string", input)).toBe(valid);
    expect(semver(input) instanceof SemverValue).toBe(valid);
  });

  it.each([
    ["", "Version string empty"],
    ["1.0", "No Major.Minor.Patch elements found"],
    ["a.1.1", 'Invalid character(s) found in major number "a"'],
    ["01.1.1", 'Major number must not contain leading zeroes "01"'],
    ["1.01.1", 'Minor number must not contain leading zeroes "01"'],
    ["1.1.01", 'Patch number must not contain leading zeroes "01"'],
    ["1.1.x", 'Invalid character(s) found in patch number "x"'],
    [".1.1", 'strconv.ParseUint: parsing "": invalid syntax'],
    ["99999999999999999999.1.1", 'strconv.ParseUint: parsing "99999999999999999999": value out of range'],
    ["1.1.1-", "Prerelease is empty"],
    ["1.1.1-01", 'Numeric PreRelease version must not contain leading zeroes "01"'],
    ["1.1.1-a_b", 'Invalid character(s) found in prerelease "a_b"'],
    ["1.1.1+", "Build meta data is empty"],
    ["1.1.1+a_b", 'Invalid character(s) found in build meta data "a_b"'],
  ])("semver(%j) fails: %s", (input, message) => {
    expect(errorOf(semver(input))).toBe(message);
  });

  it("normalizes on request: no leading v, missing parts filled, leading zeros dropped", () => {
    expect(op("is_semver_string_bool", "v1.0", true)).toBe(true);
    expect(op("is_semver_string_bool", "v1.0", false)).toBe(false);
    expect((normalized("v1.0.0") as SemverValue).equals(semver("1.0.0"))).toBe(true);
    expect((normalized("1.0") as SemverValue).equals(semver("1.0.0"))).toBe(true);
    expect((normalized("1") as SemverValue).equals(semver("1.0.0"))).toBe(true);
    expect((normalized("01.01.01") as SemverValue).equals(semver("1.1.1"))).toBe(true);
    expect((normalized("1.2.0-alpha") as SemverValue).equals(semver("1.2.0-alpha"))).toBe(true);
    expect(errorOf(normalized("1.0-alpha"))).toBe("short version cannot contain PreRelease/Build meta data");
    expect(errorOf(normalized(" 1.0.0"))).toBe('Invalid character(s) found in major number "0 1"');
  });

  it("reads the version numbers", () => {
    const v = semver("1.2.3");
    expect(op("semver_major", v)).toBe(1n);
    expect(op("semver_minor", v)).toBe(2n);
    expect(op("semver_patch", v)).toBe(3n);
    expect(op("semver_major", semver("18446744073709551615.0.0"))).toBe(-1n);
  });

  it.each([
    ["1.2.3", "1.2.3", 0n],
    ["1.2.3", "2.0.0", -1n],
    ["1.2.3", "0.1.2", 1n],
    ["1.0.0-alpha", "1.0.0", -1n],
    ["1.0.0-alpha", "1.0.0-alpha.1", -1n],
    ["1.0.0-alpha.1", "1.0.0-alpha.beta", -1n],
    ["1.0.0-beta.2", "1.0.0-beta.11", -1n],
    ["1.0.0-rc.1", "1.0.0-beta.11", 1n],
    ["1.0.0+build.1", "1.0.0+build.2", 0n],
  ])("compareTo(%s, %s) is %s", (a, b, order) => {
    expect(op("semver_compare_to", semver(a), semver(b))).toBe(order);
    expect(op("semver_is_greater_than", semver(a), semver(b))).toBe(order === 1n);
    expect(op("semver_is_less_than", semver(a), semver(b))).toBe(order === -1n);
    expect((semver(a) as SemverValue).equals(semver(b))).toBe(order === 0n);
  });
});
