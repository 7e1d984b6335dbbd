// The conditions kube's namespace deleter keeps on a terminating namespace: each of its condition types
// is always present, True with the failure or what remains, or False with kube's "ok" reason and message.

export interface NamespaceCondition {
  type: string;
  status: "True" | "False";
  lastTransitionTime: string;
  reason: string;
  message: string;
}

/** What one pass over the namespace's content found. */
export interface ContentReport {
  /** `<resource>.<group>` (kube's wording, so core resources end in a dot) → objects left. */
  remaining: Map<string, number>;
  /** Finalizer → objects left that carry it. */
  finalizers: Map<string, number>;
  /** Messages of failed deletes or lists. */
  failures: string[];
}

interface Variant {
  type: string;
  okReason: string;
  okMessage: string;
}

const contentFailure: Variant = {
  type: "NamespaceDeletionContentFailure",
  okReason: "ContentDeleted",
  okMessage: "All content successfully deleted, may be waiting on finalization",
};
const contentRemaining: Variant = {
  type: "NamespaceContentRemaining",
  okReason: "ContentRemoved",
  okMessage: "All content successfully removed",
};
const finalizersRemaining: Variant = {
  type: "NamespaceFinalizersRemaining",
  okReason: "ContentHasNoFinalizers",
  okMessage: "All content-preserving finalizers finished",
};

/** kube's order of the types it maintains; discovery and group-version parsing cannot fail in kapi. */
const variants: readonly Variant[] = [
  {
    type: "NamespaceDeletionDiscoveryFailure",
    okReason: "ResourcesDiscovered",
    okMessage: "All resources successfully discovered",
  },
  {
    type: "NamespaceDeletionGroupVersionParsingFailure",
    okReason: "ParsedGroupVersions",
    okMessage: "All legacy kube types successfully parsed",
  },
  contentFailure,
  contentRemaining,
  finalizersRemaining,
];

function failing(report: ContentReport): Map<string, { reason: string; message: string }> {
  const found = new Map<string, { reason: string; message: string }>();
  if (report.failures.length > 0) {
    const messages = [...report.failures].sort();
    found.set(contentFailure.type, {
      reason: "ContentDeletionFailed",
      message: `Failed to delete all resource types, ${messages.length} remaining: ${messages.join(", ")}`,
    });
  }
  const resources = [...report.remaining].filter(([, n]) => n > 0);
  if (resources.length > 0) {
    const parts = resources.map(([resource, n]) => `${resource} has ${n} resource instances`).sort();
    found.set(contentRemaining.type, {
      reason: "SomeResourcesRemain",
      message: `Some resources are remaining: ${parts.join(", ")}`,
    });
  }
  const finalizers = [...report.finalizers].filter(([, n]) => n > 0);
  if (finalizers.length > 0) {
    const parts = finalizers.map(([finalizer, n]) => `${finalizer} in ${n} resource instances`).sort();
    found.set(finalizersRemaining.type, {
      reason: "SomeFinalizersRemain",
      message: `Some content in the namespace has finalizers remaining: ${parts.join(", ")}`,
    });
  }
  return found;
}

/**
 * kube's updateConditions: sets every maintained type on `status.conditions` (the transition time moves
 * only when the status flips); returns whether anything changed.
 */
export function applyConditions(status: Record<string, unknown>, report: ContentReport, now: string): boolean {
  const conditions = Array.isArray(status.conditions) ? (status.conditions as NamespaceCondition[]) : [];
  const failures = failing(report);
  let changed = false;
  for (const variant of variants) {
    const failure = failures.get(variant.type);
    const wanted = {
      type: variant.type,
      status: failure === undefined ? ("False" as const) : ("True" as const),
      reason: failure?.reason ?? variant.okReason,
      message: failure?.message ?? variant.okMessage,
    };
    const old = conditions.find((c) => c.type === variant.type);
    if (old === undefined) {
      const { type, status: value, reason, message } = wanted;
      conditions.push({ type, status: value, lastTransitionTime: now, reason, message });
      changed = true;
    } else if (old.status !== wanted.status || old.reason !== wanted.reason || old.message !== wanted.message) {
      if (old.status !== wanted.status) old.lastTransitionTime = now;
      Object.assign(old, wanted);
      changed = true;
    }
  }
  status.conditions = conditions;
  return changed;
}
