// kube's check registry: for each level and version the checks that apply, baseline checks first then
// restricted ones, each group in the order of their IDs; a restricted check replaces the baseline checks it
// overrides. Versions newer than the newest check's (and `latest`) evaluate as that newest version.
import { baselineChecks } from "./baseline-checks.js";
import type { Check, CheckPod, CheckResult, JsonObject } from "./pod-checks.js";
import { sortedSet } from "./pod-checks.js";
import type { LevelVersion } from "./policy-levels.js";
import { restrictedChecks } from "./restricted-checks.js";

/** The failed checks of one evaluation, in order. */
export interface Verdict {
  allowed: boolean;
  reasons: string[];
  details: string[];
}

/** `reason (detail), reason (detail)`: what a refusal and a warning say. */
export function forbiddenDetail(v: Verdict): string {
  return v.reasons.map((reason, i) => (v.details[i] ? `${reason} (${v.details[i]})` : reason)).join(", ");
}

/** `reason, reason`: what the namespace label check says of each existing pod. */
export function forbiddenReason(v: Verdict): string {
  return v.reasons.join(", ");
}

function aggregate(results: readonly CheckResult[]): Verdict {
  const failed = results.filter((r) => !r.allowed);
  return {
    allowed: failed.length === 0,
    reasons: failed.map((r) => r.reason || "unknown forbidden reason"),
    details: failed.map((r) => r.detail ?? ""),
  };
}

/** The implementation of a check at a minor version, or undefined before its first version. */
function atVersion(check: Check, minor: number) {
  return check.versions.findLast((v) => v.minimumMinor <= minor);
}

export class CheckEvaluator {
  readonly #baseline: CheckPod[][] = [];
  readonly #restricted: CheckPod[][] = [];
  readonly #maxMinor: number;

  constructor(checks: readonly Check[] = [...baselineChecks, ...restrictedChecks]) {
    this.#maxMinor = Math.max(...checks.map((c) => c.versions[c.versions.length - 1]?.minimumMinor ?? 0));
    const byId = new Map(checks.map((c) => [c.id, c]));
    const ids = (level: Check["level"]) => sortedSet(checks.filter((c) => c.level === level).map((c) => c.id));
    const order = [...ids("baseline"), ...ids("restricted")];
    for (let minor = 0; minor <= this.#maxMinor; minor++) {
      const overridden = new Set(
        checks.filter((c) => c.level === "restricted").flatMap((c) => atVersion(c, minor)?.overrides ?? []),
      );
      const baseline: CheckPod[] = [];
      const restricted: CheckPod[] = [];
      for (const id of order) {
        const check = byId.get(id) as Check;
        const versioned = atVersion(check, minor);
        if (versioned === undefined) continue;
        if (check.level === "baseline") {
          baseline.push(versioned.checkPod);
          if (!overridden.has(id)) restricted.push(versioned.checkPod);
        } else restricted.push(versioned.checkPod);
      }
      this.#baseline.push(baseline);
      this.#restricted.push(restricted);
    }
  }

  evaluate(lv: LevelVersion, podMetadata: JsonObject, podSpec: JsonObject): Verdict {
    if (lv.level === "privileged") return aggregate([]);
    const minor = lv.version.latest ? this.#maxMinor : Math.min(lv.version.minor, this.#maxMinor);
    const checks = (lv.level === "baseline" ? this.#baseline : this.#restricted)[minor] ?? [];
    return aggregate(checks.map((check) => check(podMetadata, podSpec)));
  }
}
