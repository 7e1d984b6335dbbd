// kube-apiserver's deprecation of a built-in kind (apiserver's endpoints/deprecation): a kind whose lifecycle
// names a `deprecated` release at or before the served one gets a Warning on every request, and its requests
// are audited with `k8s.io/deprecated` and `k8s.io/removed-release`.
import type { Lifecycle } from "./kind-record.js";

export interface Deprecation {
  /** The `Warning` text: `<apiVersion> <Kind> is deprecated in v1.33+[, unavailable in v1.36+][; use <replacement>]`. */
  warning: string;
  /** `<major>.<minor>` of the release the kind is removed in; absent when none is planned. */
  removedRelease?: string;
}

function release(text: string | undefined): { major: number; minor: number } | undefined {
  const match = /^(\d+)\.(\d+)$/.exec(text ?? "");
  if (match === null) return undefined;
  const major = Number(match[1]);
  const minor = Number(match[2]);
  return major === 0 && minor === 0 ? undefined : { major, minor };
}

/** The deprecation of a kind in the served release `current` (`1.36`); undefined when it is not deprecated yet. */
export function deprecationOf(
  kind: { group: string; version: string; kind: string; lifecycle?: Lifecycle | undefined },
  current: string,
): Deprecation | undefined {
  const deprecated = release(kind.lifecycle?.deprecated);
  const served = release(current);
  if (deprecated === undefined || served === undefined) return undefined;
  if (deprecated.major > served.major || (deprecated.major === served.major && deprecated.minor > served.minor)) {
    return undefined;
  }
  const apiVersion = kind.group === "" ? kind.version : `${kind.group}/${kind.version}`;
  let warning = `${apiVersion} ${kind.kind} is deprecated in v${deprecated.major}.${deprecated.minor}+`;
  const removed = release(kind.lifecycle?.removed);
  if (removed !== undefined) warning += `, unavailable in v${removed.major}.${removed.minor}+`;
  const replacement = kind.lifecycle?.replacement;
  if (replacement !== undefined && replacement !== "") warning += `; use ${replacement}`;
  return removed === undefined ? { warning } : { warning, removedRelease: `${removed.major}.${removed.minor}` };
}
