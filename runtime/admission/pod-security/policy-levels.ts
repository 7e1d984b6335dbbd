// Pod Security Standards' levels, versions and namespace labels (kube's pod-security-admission api package):
// a namespace's labels name the level and version each mode (enforce, audit, warn) evaluates pods against.
import { type FieldError, invalid } from "../../errors/field-error.js";
import { key } from "../../errors/field-path.js";

export type Level = "privileged" | "baseline" | "restricted";

const levels: readonly Level[] = ["privileged", "baseline", "restricted"];

/** A policy version: `v1.<minor>`, or `latest` (newer than every numbered version). */
export type Version = { latest: true } | { latest: false; minor: number };

export const latest: Version = { latest: true };

export function minorVersion(minor: number): Version {
  return { latest: false, minor };
}

export function versionString(v: Version): string {
  return v.latest ? "latest" : `v1.${v.minor}`;
}

export function olderThan(v: Version, other: Version): boolean {
  if (v.latest) return false;
  if (other.latest) return true;
  return v.minor < other.minor;
}

export function sameVersion(a: Version, b: Version): boolean {
  return a.latest ? b.latest : !b.latest && a.minor === b.minor;
}

export interface LevelVersion {
  level: Level;
  version: Version;
}

export function levelVersionString(lv: LevelVersion): string {
  return `${lv.level}:${versionString(lv.version)}`;
}

export function sameLevelVersion(a: LevelVersion, b: LevelVersion): boolean {
  return a.level === b.level && sameVersion(a.version, b.version);
}

/** Equivalent: the same, or both privileged (whose version does not matter). */
function equivalent(a: LevelVersion, b: LevelVersion): boolean {
  return (a.level === "privileged" && b.level === "privileged") || sameLevelVersion(a, b);
}

export interface Policy {
  enforce: LevelVersion;
  audit: LevelVersion;
  warn: LevelVersion;
}

export function equivalentPolicies(a: Policy, b: Policy): boolean {
  return equivalent(a.enforce, b.enforce) && equivalent(a.audit, b.audit) && equivalent(a.warn, b.warn);
}

export function fullyPrivileged(p: Policy): boolean {
  return p.enforce.level === "privileged" && p.audit.level === "privileged" && p.warn.level === "privileged";
}

/** kube's CompareLevels: negative, zero or positive as `a` is less, as or more restrictive than `b`. */
export function compareLevels(a: Level, b: Level): number {
  return levels.indexOf(a) - levels.indexOf(b);
}

export const levelError = `must be one of ${levels.join(", ")}`;
export const versionError = 'must be "latest" or "v1.x"';

/** The level, or undefined when the text names none (kube then evaluates as restricted). */
export function parseLevel(text: string): Level | undefined {
  return (levels as readonly string[]).includes(text) ? (text as Level) : undefined;
}

const versionPattern = /^v1\.([0-9]|[1-9][0-9]*)$/;

/** The version, or undefined when the text is neither `latest` nor `v1.x` (kube then evaluates latest). */
export function parseVersion(text: string): Version | undefined {
  if (text === "latest") return latest;
  const match = versionPattern.exec(text);
  if (match === null) return undefined;
  const minor = Number(match[1]);
  return Number.isSafeInteger(minor) ? minorVersion(minor) : undefined;
}

const labelPrefix = "pod-security.kubernetes.io/";

export const labels = {
  enforce: `${labelPrefix}enforce`,
  enforceVersion: `${labelPrefix}enforce-version`,
  audit: `${labelPrefix}audit`,
  auditVersion: `${labelPrefix}audit-version`,
  warn: `${labelPrefix}warn`,
  warnVersion: `${labelPrefix}warn-version`,
} as const;

/** Audit annotations are the label prefix plus these keys. */
export const auditAnnotationPrefix = labelPrefix;

const labelsPath = "metadata.labels";

/**
 * The policy a namespace's labels ask for over the defaults, and the labels' errors. As kube: an invalid
 * enforce level evaluates as restricted, an invalid version as latest, an invalid audit or warn level as
 * privileged (they fail open); warn follows a stricter enforce level when no warn label is set.
 */
export function policyFromLabels(
  nsLabels: Readonly<Record<string, string>>,
  defaults: Policy,
): { policy: Policy; errors: FieldError[] } {
  const policy: Policy = { enforce: { ...defaults.enforce }, audit: { ...defaults.audit }, warn: { ...defaults.warn } };
  const errors: FieldError[] = [];
  if (Object.keys(nsLabels).length === 0) return { policy, errors };
  const level = (label: string, failOpen: Level): Level | undefined => {
    const text = nsLabels[label];
    if (text === undefined) return undefined;
    const parsed = parseLevel(text);
    if (parsed !== undefined) return parsed;
    errors.push(invalid(key(labelsPath, label), text, levelError));
    return failOpen;
  };
  const version = (label: string): Version | undefined => {
    const text = nsLabels[label];
    if (text === undefined) return undefined;
    const parsed = parseVersion(text);
    if (parsed !== undefined) return parsed;
    errors.push(invalid(key(labelsPath, label), text, versionError));
    return latest;
  };
  const enforceErrors = errors.length;
  const enforceLevel = level(labels.enforce, "restricted");
  const hasEnforceLevel = enforceLevel !== undefined && errors.length === enforceErrors;
  if (enforceLevel !== undefined) policy.enforce.level = enforceLevel;
  const enforceVersion = version(labels.enforceVersion);
  if (enforceVersion !== undefined) policy.enforce.version = enforceVersion;
  const auditLevel = level(labels.audit, "privileged");
  if (auditLevel !== undefined) policy.audit.level = auditLevel;
  const auditVersion = version(labels.auditVersion);
  if (auditVersion !== undefined) policy.audit.version = auditVersion;
  const warnLevel = level(labels.warn, "privileged");
  if (warnLevel !== undefined) policy.warn.level = warnLevel;
  const warnVersion = version(labels.warnVersion);
  if (warnVersion !== undefined) policy.warn.version = warnVersion;
  if (warnLevel === undefined && hasEnforceLevel && compareLevels(policy.enforce.level, policy.warn.level) > 0) {
    policy.warn.level = policy.enforce.level;
    if (warnVersion === undefined) policy.warn.version = policy.enforce.version;
  }
  return { policy, errors };
}
