// kube-apiserver's max-in-flight filter: two pools of slots, one for reads (get, list, watch) and one for
// everything else; a request that finds its pool full is refused at once, never queued. 0 means no limit.

export interface InFlightLimits {
  /** `--max-requests-inflight`, default 400. */
  readOnly: number;
  /** `--max-mutating-requests-inflight`, default 200. */
  mutating: number;
}

export const defaultInFlightLimits: InFlightLimits = { readOnly: 400, mutating: 200 };

const readOnlyVerbs = new Set(["get", "list", "watch"]);

export function isMutatingVerb(verb: string): boolean {
  return !readOnlyVerbs.has(verb);
}

export class InFlightLimit {
  private readOnly = 0;
  private mutating = 0;

  constructor(readonly limits: InFlightLimits = defaultInFlightLimits) {}

  /** Takes a slot in the request's pool; false when the pool is full. */
  acquire(mutating: boolean): boolean {
    const limit = mutating ? this.limits.mutating : this.limits.readOnly;
    const current = mutating ? this.mutating : this.readOnly;
    if (limit !== 0 && current >= limit) return false;
    if (mutating) this.mutating++;
    else this.readOnly++;
    return true;
  }

  release(mutating: boolean): void {
    if (mutating) this.mutating--;
    else this.readOnly--;
  }

  /** Requests holding a slot now, by pool. */
  get inUse(): { readOnly: number; mutating: number } {
    return { readOnly: this.readOnly, mutating: this.mutating };
  }
}
