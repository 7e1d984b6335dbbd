// What a Kubernetes version name says: `v<N>`, `v<N>alpha<M>` or `v<N>beta<M>`, its stability, and kube's
// "kube-aware" order (k8s.io/apimachinery/pkg/version CompareKubeAwareVersionStrings): GA before beta before
// alpha, higher numbers first within each, then anything else alphabetically. Discovery lists a custom
// resource's versions in this order and prefers the first.
import type { Stability } from "./kind-record.js";

/** A version name as Kubernetes writes them. */
export const versionNamePattern = /^v[1-9][0-9]*((alpha|beta)[1-9][0-9]*)?$/;

/** The stability a version name says: alpha, beta, or stable (anything else). */
export function stabilityOf(version: string): Stability {
  if (/^v\d+alpha\d+$/.test(version)) return "alpha";
  if (/^v\d+beta\d+$/.test(version)) return "beta";
  return "stable";
}

interface Parsed {
  major: number;
  /** 2 GA, 1 beta, 0 alpha. */
  stage: number;
  minor: number;
}

function parse(version: string): Parsed | undefined {
  const match = /^v([1-9]\d*)(?:(alpha|beta)([1-9]\d*))?$/.exec(version);
  if (match === null) return undefined;
  const stage = match[2] === undefined ? 2 : match[2] === "beta" ? 1 : 0;
  return { major: Number(match[1]), stage, minor: Number(match[3] ?? 0) };
}

/** Negative when `a` comes first. */
export function compareKubeAwareVersions(a: string, b: string): number {
  const pa = parse(a);
  const pb = parse(b);
  if (pa === undefined || pb === undefined) {
    if (pa !== undefined) return -1;
    if (pb !== undefined) return 1;
    return a.localeCompare(b);
  }
  if (pa.stage !== pb.stage) return pb.stage - pa.stage;
  if (pa.major !== pb.major) return pb.major - pa.major;
  return pb.minor - pa.minor;
}
