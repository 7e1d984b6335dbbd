// LimitRanger's checks of one resource against one bound of a LimitRange item, with kube's texts: min and
// max against a request and a limit, max against a claim's request, and the limit-to-request ratio. Values
// are compared in milli-units when all three fit, else in whole units, as kube compares them.
import type { ResourceList } from "../../quota/resource-list.js";
import {
  formatQuantity,
  maxMilliValue,
  milliValue,
  type Quantity,
  wholeValue,
  zeroQuantity,
} from "../../validation/quantity-arithmetic.js";

/** requestLimitEnforcedValues: the three values at a common precision. */
function comparable(
  request: Quantity | undefined,
  limit: Quantity | undefined,
  enforced: Quantity,
): [bigint, bigint, bigint] {
  const quantities = [request ?? zeroQuantity, limit ?? zeroQuantity, enforced];
  const whole = quantities.map(wholeValue) as [bigint, bigint, bigint];
  if (whole.every((v) => v <= maxMilliValue)) return quantities.map(milliValue) as [bigint, bigint, bigint];
  return whole;
}

/** The bound a constraint enforces: which limit type, which resource, what value. */
export interface Bound {
  limitType: string;
  resource: string;
  enforced: Quantity;
}

export function minConstraint(bound: Bound, requests: ResourceList, limits: ResourceList): string | undefined {
  const { limitType, resource, enforced } = bound;
  const request = requests.get(resource);
  const limit = limits.get(resource);
  const [observedRequest, observedLimit, enforcedValue] = comparable(request, limit, enforced);
  const prefix = `minimum ${resource} usage per ${limitType} is ${formatQuantity(enforced)}`;
  if (request === undefined) return `${prefix}.  No request is specified`;
  if (observedRequest < enforcedValue) return `${prefix}, but request is ${formatQuantity(request)}`;
  if (limit !== undefined && observedLimit < enforcedValue) return `${prefix}, but limit is ${formatQuantity(limit)}`;
  return undefined;
}

/** The max of a type whose objects have requests only (PersistentVolumeClaim). */
export function maxRequestConstraint(bound: Bound, requests: ResourceList): string | undefined {
  const { limitType, resource, enforced } = bound;
  const request = requests.get(resource);
  const [observedRequest, , enforcedValue] = comparable(request, undefined, enforced);
  const prefix = `maximum ${resource} usage per ${limitType} is ${formatQuantity(enforced)}`;
  if (request === undefined) return `${prefix}.  No request is specified`;
  if (observedRequest > enforcedValue) return `${prefix}, but request is ${formatQuantity(request)}`;
  return undefined;
}

export function maxConstraint(bound: Bound, requests: ResourceList, limits: ResourceList): string | undefined {
  const { limitType, resource, enforced } = bound;
  const request = requests.get(resource);
  const limit = limits.get(resource);
  const [observedRequest, observedLimit, enforcedValue] = comparable(request, limit, enforced);
  const prefix = `maximum ${resource} usage per ${limitType} is ${formatQuantity(enforced)}`;
  if (limit === undefined) return `${prefix}.  No limit is specified`;
  if (observedLimit > enforcedValue) return `${prefix}, but limit is ${formatQuantity(limit)}`;
  if (request !== undefined && observedRequest > enforcedValue)
    return `${prefix}, but request is ${formatQuantity(request)}`;
  return undefined;
}

export function limitRequestRatioConstraint(
  bound: Bound,
  requests: ResourceList,
  limits: ResourceList,
): string | undefined {
  const { limitType, resource, enforced } = bound;
  const request = requests.get(resource);
  const limit = limits.get(resource);
  const [observedRequest, observedLimit] = comparable(request, limit, enforced);
  const prefix = `${resource} max limit to request ratio per ${limitType} is ${formatQuantity(enforced)}`;
  if (request === undefined || observedRequest === 0n) return `${prefix}, but no request is specified or request is 0`;
  if (limit === undefined || observedLimit === 0n) return `${prefix}, but no limit is specified or limit is 0`;
  const ratio = Number(observedLimit) / Number(observedRequest);
  let observed = ratio;
  let allowed = Number(wholeValue(enforced));
  if (wholeValue(enforced) <= maxMilliValue) {
    observed = ratio * 1000;
    allowed = Number(milliValue(enforced));
  }
  // Go's %f: six decimals.
  if (observed > allowed) return `${prefix}, but provided ratio is ${ratio.toFixed(6)}`;
  return undefined;
}

/** utilerrors.NewAggregate(...).Error(): one message as itself, several (each once) in brackets. */
export function aggregateMessage(messages: readonly string[]): string | undefined {
  const unique = [...new Set(messages)];
  if (unique.length === 0) return undefined;
  return unique.length === 1 ? unique[0] : `[${unique.join(", ")}]`;
}
