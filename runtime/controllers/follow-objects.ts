// An informer in miniature: watches one resource through the ResourceApi, first the current objects as
// ADDED events, then changes, and resumes where it stopped when the watch ends (a slow consumer is cut
// off by the cache); a resumption the history no longer covers (410) starts over from the current state,
// so handlers must be level-based. Failures are logged and retried with backoff until the signal aborts.

import type { KubeObject } from "../object/kube-object.js";
import type { ListQuery } from "../resources/list-options.js";
import type { ResourceApi, Target } from "../resources/resource-api.js";
import { viewAt } from "../resources/versioned.js";
import { statusCode } from "./api-errors.js";
import type { ControllerContext } from "./controller-context.js";
import { watchLoopBackoff } from "./watch-loop-backoff.js";

export interface ObjectEvent {
  type: "ADDED" | "MODIFIED" | "DELETED";
  /** Deep-frozen; for DELETED the last state seen. */
  object: KubeObject;
}

export interface FollowOptions extends ControllerContext {
  name: string;
  /** Label and field selectors, as for a list. */
  query?: Pick<ListQuery, "labelSelector" | "fieldSelector">;
  /** Called each time a watch starts, before its events: deletions before it were not seen. */
  onWatch?: () => void;
}

/** Runs until `options.signal` aborts; resolves then. */
export async function followObjects(
  api: ResourceApi,
  target: Target,
  onEvent: (event: ObjectEvent) => void,
  options: FollowOptions,
): Promise<void> {
  const { signal } = options;
  let resourceVersion: string | undefined;
  const backoff = watchLoopBackoff();
  while (!signal.aborted) {
    try {
      const watch = await api.watch(
        target,
        { ...options.query, ...(resourceVersion === undefined ? {} : { resourceVersion }) },
        signal,
      );
      options.onWatch?.();
      let delivered = false;
      for await (const event of watch) {
        if (event.type === "BOOKMARK") continue;
        resourceVersion = String(event.resourceVersion);
        delivered = true;
        onEvent({ type: event.type, object: viewAt(event.object, target.kind) });
      }
      // A watch that ends after delivering resumes at once; one that ends empty-handed backs off.
      if (delivered) backoff.reset();
      else await backoff.wait(signal);
    } catch (error) {
      if (signal.aborted) return;
      if (statusCode(error) === 410) resourceVersion = undefined;
      else options.log(`${options.name}: watching ${target.kind.resource.plural} failed`, error);
      await backoff.wait(signal);
    }
  }
}

/**
 * A handler that keeps `known` as the followed objects by `<namespace>/<name>` and passes each key on: for
 * controllers that look among the objects they follow for the ones another object's change concerns.
 */
export function trackKnown<T>(known: Map<string, T>, onKey: (key: string) => void): (event: ObjectEvent) => void {
  return (event) => {
    const meta = (event.object.metadata ?? {}) as { namespace?: string; name?: string };
    const key = `${meta.namespace}/${meta.name}`;
    if (event.type === "DELETED") known.delete(key);
    else known.set(key, event.object as T);
    onKey(key);
  };
}
