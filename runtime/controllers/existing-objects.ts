// Reads and writes that take "not found" for an answer: a controller's queue often reaches an object after
// it is gone, and then there is nothing left to do.
import type { KubeObject } from "../object/kube-object.js";
import type { ResourceApi, Target } from "../resources/resource-api.js";
import { statusCode } from "./api-errors.js";

/** The object `target` names, or undefined when there is none; other failures are thrown. */
export async function getExisting(api: ResourceApi, target: Target): Promise<KubeObject | undefined> {
  try {
    return (await api.get(target)).object;
  } catch (error) {
    if (statusCode(error) === 404) return undefined;
    throw error;
  }
}

/** Writes `obj` to `target`: the object written, or undefined when there is none; other failures are thrown. */
export async function updateExisting(
  api: ResourceApi,
  target: Target,
  obj: KubeObject,
): Promise<KubeObject | undefined> {
  try {
    return (await api.update(target, obj)).object;
  } catch (error) {
    if (statusCode(error) === 404) return undefined;
    throw error;
  }
}
