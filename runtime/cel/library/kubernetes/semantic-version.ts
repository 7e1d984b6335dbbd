// Semantic versions as github.com/blang/semver/v4 parses and orders them (Parse, Compare), plus the
// normalizing parse Kubernetes' semver library offers (normalizeAndParse: no leading "v", missing minor or
// patch filled with 0, leading zeros dropped). Error texts are blang's, since Kubernetes returns them.
import { goQuote } from "../../../errors/go-format.js";
import type { Parsed } from "./parsed.js";

export interface PreRelease {
  readonly numeric: boolean;
  readonly num: bigint;
  readonly str: string;
}

export interface SemanticVersion {
  readonly major: bigint;
  readonly minor: bigint;
  readonly patch: bigint;
  readonly pre: readonly PreRelease[];
  readonly build: readonly string[];
}

const UINT64_MAX = 2n ** 64n - 1n;

class VersionError extends Error {}

const onlyDigits = (s: string): boolean => /^[0-9]*$/.test(s);
const onlyAlphanumeric = (s: string): boolean => /^[0-9A-Za-z-]*$/.test(s);
const hasLeadingZeroes = (s: string): boolean => s.length > 1 && s[0] === "0";

/** Go's strconv.ParseUint(s, 10, 64) on a string of digits. */
function parseUint(s: string): bigint {
  if (s === "") throw new VersionError(`strconv.ParseUint: parsing ${goQuote(s)}: invalid syntax`);
  const n = BigInt(s);
  if (n > UINT64_MAX) throw new VersionError(`strconv.ParseUint: parsing ${goQuote(s)}: value out of range`);
  return n;
}

function versionNumber(s: string, part: "major" | "minor" | "patch"): bigint {
  const title = part[0]?.toUpperCase() + part.slice(1);
  if (!onlyDigits(s)) throw new VersionError(`Invalid character(s) found in ${part} number ${goQuote(s)}`);
  if (hasLeadingZeroes(s)) throw new VersionError(`${title} number must not contain leading zeroes ${goQuote(s)}`);
  return parseUint(s);
}

function preRelease(s: string): PreRelease {
  if (s.length === 0) throw new VersionError("Prerelease is empty");
  if (onlyDigits(s)) {
    if (hasLeadingZeroes(s)) {
      throw new VersionError(`Numeric PreRelease version must not contain leading zeroes ${goQuote(s)}`);
    }
    return { numeric: true, num: parseUint(s), str: "" };
  }
  if (onlyAlphanumeric(s)) return { numeric: false, num: 0n, str: s };
  throw new VersionError(`Invalid character(s) found in prerelease ${goQuote(s)}`);
}

/** Go's strings.SplitN(s, sep, n). */
function splitN(s: string, sep: string, n: number): string[] {
  const parts: string[] = [];
  let rest = s;
  while (parts.length < n - 1) {
    const at = rest.indexOf(sep);
    if (at < 0) break;
    parts.push(rest.slice(0, at));
    rest = rest.slice(at + sep.length);
  }
  parts.push(rest);
  return parts;
}

function parseStrict(s: string): SemanticVersion {
  if (s.length === 0) throw new VersionError("Version string empty");
  const parts = splitN(s, ".", 3);
  if (parts.length !== 3) throw new VersionError("No Major.Minor.Patch elements found");
  const major = versionNumber(parts[0] as string, "major");
  const minor = versionNumber(parts[1] as string, "minor");
  let patchText = parts[2] as string;
  let build: string[] = [];
  let prerelease: string[] = [];
  const plus = patchText.indexOf("+");
  if (plus !== -1) {
    build = patchText.slice(plus + 1).split(".");
    patchText = patchText.slice(0, plus);
  }
  const dash = patchText.indexOf("-");
  if (dash !== -1) {
    prerelease = patchText.slice(dash + 1).split(".");
    patchText = patchText.slice(0, dash);
  }
  const patch = versionNumber(patchText, "patch");
  const pre = prerelease.map(preRelease);
  for (const b of build) {
    if (b.length === 0) throw new VersionError("Build meta data is empty");
    if (!onlyAlphanumeric(b)) throw new VersionError(`Invalid character(s) found in build meta data ${goQuote(b)}`);
  }
  return { major, minor, patch, pre, build };
}

/** Kubernetes' normalizeAndParse (blang's ParseTolerant without trimming spaces). */
function parseNormalized(input: string): SemanticVersion {
  const s = input.startsWith("v") ? input.slice(1) : input;
  const parts = splitN(s, ".", 3).map((p) => {
    if (p.length <= 1) return p;
    const trimmed = p.replace(/^0+/, "");
    return trimmed.length === 0 || !/^[0-9]/.test(trimmed) ? `0${trimmed}` : trimmed;
  });
  if (parts.length < 3) {
    if (/[+-]/.test(parts[parts.length - 1] as string)) {
      throw new VersionError("short version cannot contain PreRelease/Build meta data");
    }
    while (parts.length < 3) parts.push("0");
  }
  return parseStrict(parts.join("."));
}

function parsed(parse: (s: string) => SemanticVersion, s: string): Parsed<SemanticVersion> {
  try {
    return { ok: true, value: parse(s) };
  } catch (e) {
    if (e instanceof VersionError) return { ok: false, error: e.message };
    throw e;
  }
}

/** blang's semver.Parse. */
export function parseSemanticVersion(s: string): Parsed<SemanticVersion> {
  return parsed(parseStrict, s);
}

/** Kubernetes' normalizeAndParse. */
export function parseNormalizedSemanticVersion(s: string): Parsed<SemanticVersion> {
  return parsed(parseNormalized, s);
}

function compareBig(a: bigint, b: bigint): number {
  return a === b ? 0 : a > b ? 1 : -1;
}

function comparePreRelease(a: PreRelease, b: PreRelease): number {
  if (a.numeric !== b.numeric) return a.numeric ? -1 : 1;
  if (a.numeric) return compareBig(a.num, b.num);
  return a.str === b.str ? 0 : a.str > b.str ? 1 : -1;
}

/** blang's Version.Compare: numbers, then pre-release identifiers (a release sorts after its pre-releases); build ignored. */
export function compareVersions(a: SemanticVersion, b: SemanticVersion): number {
  const numbers = compareBig(a.major, b.major) || compareBig(a.minor, b.minor) || compareBig(a.patch, b.patch);
  if (numbers !== 0) return numbers;
  if (a.pre.length === 0 || b.pre.length === 0) return a.pre.length === b.pre.length ? 0 : a.pre.length === 0 ? 1 : -1;
  for (let i = 0; i < a.pre.length && i < b.pre.length; i++) {
    const c = comparePreRelease(a.pre[i] as PreRelease, b.pre[i] as PreRelease);
    if (c !== 0) return c;
  }
  return a.pre.length === b.pre.length ? 0 : a.pre.length < b.pre.length ? -1 : 1;
}
