// kube-controller-manager's clusterrole-aggregation controller: a ClusterRole with
// `aggregationRule.clusterRoleSelectors` gets as its rules those of every other ClusterRole any selector
// matches, selector by selector, the matching roles sorted by name, each role's rules in order, a rule
// already taken skipped. Any ClusterRole's change may change any aggregate (aggregates nest: admin takes
// edit's rules, edit takes view's), so every change queues every aggregated role. Like kube, it writes
// with server-side apply as `clusterrole-aggregation-controller`, forcing ownership of `rules`, and only
// when the rules differ.
import { isDeepStrictEqual } from "node:util";
import { clusterRoleKind } from "../authz/rbac/rbac-index.js";
import type { PolicyRule } from "../authz/rbac/rule-matches.js";
import type { KubeObject } from "../object/kube-object.js";
import { applyIntent } from "../resources/field-ownership.js";
import type { ResourceApi, Target } from "../resources/resource-api.js";
import { compareGoStrings } from "../selection/go-strings.js";
import { type LabelSelectorObject, labelSelectorFromObject } from "../selection/label-selector-object.js";
import { statusCode } from "./api-errors.js";
import type { ControllerContext } from "./controller-context.js";
import { followObjects } from "./follow-objects.js";
import { WorkQueue } from "./work-queue.js";

const name = "clusterrole aggregation controller";
const fieldManager = { manager: "clusterrole-aggregation-controller", force: true };
/** Applies that lose a race with another write are tried again at once this many times, then requeued. */
const attempts = 5;

interface ClusterRoleShape {
  metadata?: { name?: string; labels?: Record<string, string> };
  aggregationRule?: { clusterRoleSelectors?: LabelSelectorObject[] } | null;
  rules?: PolicyRule[] | null;
}

const listFields = ["verbs", "apiGroups", "resources", "resourceNames", "nonResourceURLs"] as const;

/** Semantic equality, as kube compares rules: an absent list equals an empty one. */
function sameRule(a: PolicyRule, b: PolicyRule): boolean {
  return listFields.every((field) => isDeepStrictEqual(a[field] ?? [], b[field] ?? []));
}

function sameRules(a: readonly PolicyRule[], b: readonly PolicyRule[]): boolean {
  return a.length === b.length && a.every((rule, i) => sameRule(rule, b[i] as PolicyRule));
}

const roleName = (role: ClusterRoleShape): string => role.metadata?.name ?? "";

/** The union kube computes for `role` from `all` ClusterRoles; throws on a selector it cannot read. */
export function aggregatedRules(role: ClusterRoleShape, all: readonly ClusterRoleShape[]): PolicyRule[] {
  const rules: PolicyRule[] = [];
  for (const selectorObject of role.aggregationRule?.clusterRoleSelectors ?? []) {
    const selector = labelSelectorFromObject(selectorObject);
    if (!selector.ok) throw new Error(`clusterrole ${roleName(role)}: ${selector.error}`);
    const matching = all
      .filter((other) => selector.selector.matches(other.metadata?.labels ?? {}))
      .sort((a, b) => compareGoStrings(roleName(a), roleName(b)));
    for (const other of matching) {
      if (roleName(other) === roleName(role)) continue;
      for (const rule of other.rules ?? []) if (!rules.some((taken) => sameRule(taken, rule))) rules.push(rule);
    }
  }
  return rules;
}

export class ClusterRoleAggregationController {
  private readonly queue: WorkQueue<string>;
  /** The names of the ClusterRoles seen with an aggregationRule. */
  private readonly aggregated = new Set<string>();

  constructor(
    private readonly api: ResourceApi,
    private readonly options: ControllerContext,
  ) {
    this.queue = new WorkQueue((role) => this.sync(role), { name, log: options.log });
  }

  async run(): Promise<void> {
    await followObjects(
      this.api,
      { kind: clusterRoleKind },
      (event) => {
        const role = event.object as ClusterRoleShape;
        if (event.type !== "DELETED" && role.aggregationRule) this.aggregated.add(roleName(role));
        else this.aggregated.delete(roleName(role));
        for (const aggregate of this.aggregated) this.queue.add(aggregate);
      },
      { ...this.options, name },
    );
    await this.queue.stop();
  }

  private async sync(roleNameToSync: string): Promise<undefined> {
    // A fresh list rather than a cache the first events may have only half filled.
    const all = (await this.api.list({ kind: clusterRoleKind })).items.map((item) => item.object as ClusterRoleShape);
    const role = all.find((candidate) => roleName(candidate) === roleNameToSync);
    if (!role?.aggregationRule) return undefined;
    const rules = aggregatedRules(role, all);
    if (sameRules(rules, role.rules ?? [])) return undefined;
    await this.apply({ kind: clusterRoleKind, name: roleNameToSync }, rules);
    return undefined;
  }

  /** Server-side apply of `rules` alone (left out when empty, as client-go's apply configuration does). */
  private async apply(target: Target, rules: PolicyRule[]): Promise<void> {
    const config: KubeObject = {
      apiVersion: `${clusterRoleKind.group}/${clusterRoleKind.version}`,
      kind: "ClusterRole",
      metadata: { name: target.name },
      ...(rules.length === 0 ? {} : { rules }),
    };
    for (let attempt = 1; ; attempt++) {
      try {
        const live = (await this.api.get(target)).object;
        const intent = applyIntent(target, live, config, fieldManager, this.api.context.now());
        await this.api.update(target, intent, { applied: true });
        return;
      } catch (error) {
        // Gone: nothing to aggregate into (kube's apply would create it; its deletion wins here).
        if (statusCode(error) === 404) return;
        if (statusCode(error) !== 409 || attempt === attempts) throw error;
      }
    }
  }
}
