// The admission policies and bindings of one kind pair in force for a request: read from the API on each
// write (the watch cache serves them from memory), policies sorted by name, each policy's bindings sorted by
// name, and each policy generation compiled once (compilations of policies gone or changed are dropped).
import type { KubeObject } from "../../object/kube-object.js";
import type { ServedKind } from "../../registry/served-kind.js";
import type { ResourceApi } from "../../resources/resource-api.js";

export type StoredPolicyObject<S> = KubeObject & {
  metadata: { name: string; uid?: string; resourceVersion?: string };
  spec?: S;
};

/** One policy with its compiled program and the bindings that name it. */
export interface PolicyInForce<P, B, C> {
  policy: StoredPolicyObject<P>;
  compiled(): C;
  bindings: StoredPolicyObject<B>[];
}

const byName = (x: { metadata: { name: string } }, y: { metadata: { name: string } }) =>
  x.metadata.name.localeCompare(y.metadata.name);

function generationKey(policy: StoredPolicyObject<unknown>): string {
  return `${policy.metadata.uid ?? policy.metadata.name}/${policy.metadata.resourceVersion ?? ""}`;
}

export class PolicyCatalog<P, B extends { policyName?: string }, C> {
  readonly #compiled = new Map<string, C>();

  constructor(
    private readonly api: ResourceApi,
    private readonly kinds: { policy: ServedKind; binding: ServedKind },
    private readonly compile: (spec: P) => C,
  ) {}

  /** The policies in force, in order; none without bindings. */
  async inForce(): Promise<PolicyInForce<P, B, C>[]> {
    const bindings = (await this.api.list({ kind: this.kinds.binding })).items.map(
      (i) => i.object as StoredPolicyObject<B>,
    );
    if (bindings.length === 0) return [];
    const policies = (await this.api.list({ kind: this.kinds.policy })).items.map(
      (i) => i.object as StoredPolicyObject<P>,
    );
    const live = new Set(policies.map(generationKey));
    for (const key of this.#compiled.keys()) if (!live.has(key)) this.#compiled.delete(key);
    return policies.sort(byName).map((policy) => ({
      policy,
      compiled: () => this.#compiledFor(policy),
      bindings: bindings.filter((b) => b.spec?.policyName === policy.metadata.name).sort(byName),
    }));
  }

  #compiledFor(policy: StoredPolicyObject<P>): C {
    const key = generationKey(policy);
    let entry = this.#compiled.get(key);
    if (entry === undefined) {
      entry = this.compile(policy.spec ?? ({} as P));
      this.#compiled.set(key, entry);
    }
    return entry;
  }
}
