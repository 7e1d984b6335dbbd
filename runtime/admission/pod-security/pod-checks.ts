// What every Pod Security check is made of: a result with kube's reason and detail texts, the versions a
// check applies from, and the helpers kube's checks share to walk a pod spec and word their details.
import type { Level } from "./policy-levels.js";

export type JsonObject = Record<string, unknown>;

/** One check's verdict: a reason (`privileged`) and a detail naming what set it (`container "c" must …`). */
export interface CheckResult {
  allowed: boolean;
  reason?: string;
  detail?: string;
}

export type CheckPod = (podMetadata: JsonObject, podSpec: JsonObject) => CheckResult;

export interface VersionedCheck {
  /** The v1.x minor version this implementation applies from, up to the next one's. */
  minimumMinor: number;
  checkPod: CheckPod;
  /** Baseline checks a restricted check replaces at this version. */
  overrides?: readonly string[];
}

export interface Check {
  id: string;
  level: Exclude<Level, "privileged">;
  versions: readonly VersionedCheck[];
}

export const allowed: CheckResult = { allowed: true };

export function forbidden(reason: string, detail: string): CheckResult {
  return { allowed: false, reason, detail };
}

export function asObject(value: unknown): JsonObject | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as JsonObject) : undefined;
}

export function objects(value: unknown): JsonObject[] {
  return Array.isArray(value) ? value.map((v) => asObject(v) ?? {}) : [];
}

export function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** Init containers, containers, then ephemeral containers, as kube visits them. */
export function containers(podSpec: JsonObject): JsonObject[] {
  return [...objects(podSpec.initContainers), ...objects(podSpec.containers), ...objects(podSpec.ephemeralContainers)];
}

export function securityContext(owner: JsonObject): JsonObject | undefined {
  return asObject(owner.securityContext);
}

export function containerName(container: JsonObject): string {
  return text(container.name);
}

/** `"a", "b"` */
export function joinQuote(items: readonly string[]): string {
  return items.length === 0 ? "" : `"${items.join('", "')}"`;
}

export function pluralize(singular: string, plural: string, count: number): string {
  return count === 1 ? singular : plural;
}

/** `container "a"` or `containers "a", "b"` */
export function containersPhrase(names: readonly string[]): string {
  return `${pluralize("container", "containers", names.length)} ${joinQuote(names)}`;
}

/** Go's sorted set listing (byte order). */
export function sortedSet(values: Iterable<string>): string[] {
  return [...new Set(values)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** A Windows pod: restricted checks of Linux-only fields pass it from v1.25. */
export function isWindowsPod(podSpec: JsonObject): boolean {
  return asObject(podSpec.os)?.name === "windows";
}

/** A pod in a user namespace (`hostUsers: false`): some checks relax from v1.35. */
export function inUserNamespace(podSpec: JsonObject): boolean {
  return podSpec.hostUsers === false;
}
