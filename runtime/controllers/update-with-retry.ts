// Read-modify-write with conflict retries, as client-go's retry.RetryOnConflict: each attempt reads the
// latest object and writes guarded by its resourceVersion, so no concurrent change is overwritten.

import type { KubeObject } from "../object/kube-object.js";
import type { ResourceApi, Target } from "../resources/resource-api.js";
import { statusCode } from "./api-errors.js";

/** client-go's DefaultRetry allows five attempts; a controller's queue retries beyond that with backoff. */
const attempts = 5;

/**
 * Applies `change` to a copy of the latest object (it returns false when nothing needs changing) and
 * writes it. Resolves to the object written, or undefined when there was nothing to do, the object is
 * gone, or it is no longer the object of uid `uid` (a new object under the same name).
 */
export async function updateWithRetry(
  api: ResourceApi,
  target: Target,
  change: (obj: KubeObject) => boolean,
  uid?: string,
): Promise<KubeObject | undefined> {
  for (let attempt = 1; ; attempt++) {
    let current: KubeObject;
    try {
      current = structuredClone((await api.get(target)).object);
    } catch (error) {
      if (statusCode(error) === 404) return undefined;
      throw error;
    }
    if (uid !== undefined && (current.metadata as { uid?: string }).uid !== uid) return undefined;
    if (!change(current)) return undefined;
    try {
      return (await api.update(target, current)).object;
    } catch (error) {
      const code = statusCode(error);
      if (code === 404) return undefined;
      if (code !== 409 || attempt === attempts) throw error;
    }
  }
}
