// kube-apiserver's rbac/bootstrap-roles post-start hook (kube's pkg/registry/rbac/reconciliation in its
// union mode): every default role and binding is created when missing; one that exists and does not carry
// `rbac.authorization.kubernetes.io/autoupdate: "false"` gets back the default labels and annotations it
// lacks, the rules it no longer covers (appended as single-verb rules), the aggregation selectors it lacks
// (and loses an aggregationRule the default does not have), the subjects it lacks, and a binding whose
// roleRef differs is deleted and created again. Nothing a user added is removed, so running it at every
// start against a persisted store is safe; a run over an up-to-date store writes nothing.
import { isDeepStrictEqual } from "node:util";
import { statusCode, statusReason } from "../../controllers/api-errors.js";
import { namespaces } from "../../controllers/core-kinds.js";
import type { KubeObject } from "../../object/kube-object.js";
import type { ServedKind } from "../../registry/served-kind.js";
import type { FieldOwner } from "../../resources/field-ownership.js";
import type { ResourceApi, Target } from "../../resources/resource-api.js";
import type { LabelSelectorObject } from "../../selection/label-selector-object.js";
import type { AggregationRule, RoleRef } from "./bootstrap-policy/builders.js";
import {
  autoUpdateAnnotation,
  type BootstrapPolicy,
  bootstrapPolicy,
  type PolicyBinding,
  type PolicyRole,
} from "./bootstrap-policy.js";
import { uncoveredRules } from "./escalation.js";
import { clusterRoleBindingKind, clusterRoleKind, roleBindingKind, roleKind } from "./rbac-index.js";
import type { PolicyRule } from "./rule-matches.js";
import type { Subject } from "./subjects.js";

/** kube-apiserver writes through its loopback client, whose user agent names the field manager. */
const owner: FieldOwner = { manager: "kube-apiserver" };
/** A write that loses a race (created, changed or deleted meanwhile) is planned again this many times. */
const attempts = 5;

type PolicyObject = PolicyRole | PolicyBinding;

interface Metadata {
  name: string;
  namespace?: string;
  uid?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

/** What an existing object needs: nothing, this updated object, or deleting and creating it afresh. */
type Plan = { update: KubeObject } | "recreate" | undefined;

const metadataOf = (obj: KubeObject | PolicyObject): Metadata => obj.metadata as Metadata;

function keyOf(obj: KubeObject | PolicyObject): string {
  const meta = metadataOf(obj);
  return `${meta.namespace ?? ""}/${meta.name}`;
}

/** Default labels and annotations the object lacks are added; values already set are kept. */
function mergeMetadata(result: KubeObject, expected: PolicyObject): boolean {
  const meta = metadataOf(result);
  const want = metadataOf(expected);
  const labels = { ...want.labels, ...meta.labels };
  const annotations = { ...want.annotations, ...meta.annotations };
  const changed =
    !isDeepStrictEqual(labels, meta.labels ?? {}) || !isDeepStrictEqual(annotations, meta.annotations ?? {});
  meta.labels = labels;
  meta.annotations = annotations;
  return changed;
}

/** Semantic equality of label selectors: absent maps and lists equal empty ones. */
function normalSelector(selector: LabelSelectorObject): unknown {
  return {
    matchLabels: selector.matchLabels ?? {},
    matchExpressions: (selector.matchExpressions ?? []).map((e) => ({ ...e, values: e.values ?? [] })),
  };
}

function missingSelectors(existing: AggregationRule | undefined, expected: AggregationRule): LabelSelectorObject[] {
  const have = (existing?.clusterRoleSelectors ?? []).map(normalSelector);
  return (expected.clusterRoleSelectors ?? []).filter(
    (selector) => !have.some((h) => isDeepStrictEqual(h, normalSelector(selector))),
  );
}

function planRole(existing: KubeObject, expected: PolicyRole): Plan {
  const result = structuredClone(existing);
  let changed = mergeMetadata(result, expected);
  const rules = (existing.rules ?? []) as PolicyRule[];
  // A rule present as it is covers itself; only the others need breaking down.
  const absent = (expected.rules ?? []).filter((want) => !rules.some((have) => isDeepStrictEqual(have, want)));
  const missingRules = absent.length === 0 ? [] : uncoveredRules(rules, absent);
  if (missingRules.length > 0) {
    result.rules = [...rules, ...missingRules];
    changed = true;
  }
  const aggregation = (existing.aggregationRule ?? undefined) as AggregationRule | undefined;
  if (expected.aggregationRule === undefined) {
    if (aggregation !== undefined) {
      delete result.aggregationRule;
      changed = true;
    }
  } else {
    const selectors = missingSelectors(aggregation, expected.aggregationRule);
    if (selectors.length > 0) {
      result.aggregationRule = { clusterRoleSelectors: [...(aggregation?.clusterRoleSelectors ?? []), ...selectors] };
      changed = true;
    }
  }
  return changed ? { update: result } : undefined;
}

function sameSubject(a: Subject, b: Subject): boolean {
  return (
    a.kind === b.kind &&
    (a.apiGroup ?? "") === (b.apiGroup ?? "") &&
    a.name === b.name &&
    (a.namespace ?? "") === (b.namespace ?? "")
  );
}

function sameRoleRef(a: RoleRef | undefined, b: RoleRef): boolean {
  return a !== undefined && a.apiGroup === b.apiGroup && a.kind === b.kind && a.name === b.name;
}

function planBinding(existing: KubeObject, expected: PolicyBinding): Plan {
  if (!sameRoleRef(existing.roleRef as RoleRef | undefined, expected.roleRef)) return "recreate";
  const result = structuredClone(existing);
  let changed = mergeMetadata(result, expected);
  const subjects = (existing.subjects ?? []) as Subject[];
  const missing: Subject[] = [];
  for (const subject of expected.subjects ?? []) {
    if (![...subjects, ...missing].some((s) => sameSubject(s, subject))) missing.push(subject);
  }
  if (missing.length > 0) {
    result.subjects = [...subjects, ...missing];
    changed = true;
  }
  return changed ? { update: result } : undefined;
}

function isProtected(existing: KubeObject): boolean {
  return metadataOf(existing).annotations?.[autoUpdateAnnotation] === "false";
}

async function find(api: ResourceApi, target: Target): Promise<KubeObject | undefined> {
  try {
    return (await api.get(target)).object;
  } catch (error) {
    if (statusCode(error) === 404) return undefined;
    throw error;
  }
}

/** kube's tryEnsureNamespace: a namespaced default whose namespace is missing gets the namespace first. */
async function create(api: ResourceApi, target: Target, expected: PolicyObject): Promise<void> {
  try {
    await api.create(target, structuredClone(expected) as unknown as KubeObject, { owner });
  } catch (error) {
    if (target.namespace === undefined || statusCode(error) !== 404) throw error;
    try {
      await api.create(
        { kind: namespaces },
        { apiVersion: "v1", kind: "Namespace", metadata: { name: target.namespace } },
      );
    } catch (nsError) {
      if (statusReason(nsError) !== "AlreadyExists") throw nsError;
    }
    await api.create(target, structuredClone(expected) as unknown as KubeObject, { owner });
  }
}

/** 409 (created or changed meanwhile) and 404 (deleted meanwhile) mean planning again from the latest state. */
function lostRace(error: unknown): boolean {
  const code = statusCode(error);
  return code === 409 || code === 404;
}

function plan(existing: KubeObject, expected: PolicyObject): Plan {
  return "roleRef" in expected ? planBinding(existing, expected) : planRole(existing, expected);
}

async function reconcile(
  api: ResourceApi,
  kind: ServedKind,
  expected: PolicyObject,
  found: KubeObject | undefined,
): Promise<void> {
  const meta = metadataOf(expected);
  const target: Target = {
    kind,
    name: meta.name,
    ...(meta.namespace === undefined ? {} : { namespace: meta.namespace }),
  };
  let existing = found;
  for (let attempt = 1; ; attempt++) {
    try {
      if (existing === undefined) return await create(api, target, expected);
      if (isProtected(existing)) return;
      const next = plan(existing, expected);
      if (next === undefined) return;
      if (next !== "recreate") {
        await api.update(target, next.update, { owner });
        return;
      }
      try {
        const uid = metadataOf(existing).uid;
        await api.delete(target, uid === undefined ? {} : { preconditions: { uid } });
      } catch (error) {
        if (statusCode(error) !== 404) throw error;
      }
      return await create(api, target, expected);
    } catch (error) {
      if (attempt === attempts || !lostRace(error)) throw error;
      existing = await find(api, target);
    }
  }
}

/** Lists the kind once and reconciles each object; resolves to what failed, in words. */
async function reconcileKind(api: ResourceApi, kind: ServedKind, objects: readonly PolicyObject[]): Promise<string[]> {
  const { items } = await api.list({ kind });
  const existing = new Map(items.map((item) => [keyOf(item.object), item.object]));
  const failures = await Promise.all(
    objects.map(async (expected) => {
      try {
        await reconcile(api, kind, expected, existing.get(keyOf(expected)));
        return [];
      } catch (error) {
        return [`${expected.kind} ${keyOf(expected)}: ${String(error)}`];
      }
    }),
  );
  return failures.flat();
}

/**
 * Creates and reconciles the default policy: each kind is listed once, then only the writes needed are
 * made, all at once. Rejects naming every object that could not be reconciled; the others are done.
 */
export async function reconcileBootstrapPolicy(
  api: ResourceApi,
  policy: BootstrapPolicy = bootstrapPolicy,
): Promise<void> {
  const failures = await Promise.all([
    reconcileKind(api, clusterRoleKind, policy.clusterRoles),
    reconcileKind(api, clusterRoleBindingKind, policy.clusterRoleBindings),
    reconcileKind(api, roleKind, policy.roles),
    reconcileKind(api, roleBindingKind, policy.roleBindings),
  ]);
  if (failures.flat().length > 0) {
    throw new Error(`reconciling the bootstrap RBAC policy failed: ${failures.flat().join("; ")}`);
  }
}
