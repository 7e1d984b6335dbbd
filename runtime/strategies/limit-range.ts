// LimitRanges (core/v1): a PUT to a missing name creates one, and a Container limit's defaults follow from its
// bounds (SetDefaults_LimitRangeItem): the default limit from max, the default request from the default limit,
// then from min, resource by resource where unset. Validation is kube's ValidateLimitRange: qualified types
// (one item per type) and resource names, no defaults on a Pod limit, storage bounds on a claim limit, and
// bounds that agree (min ≤ defaultRequest ≤ default ≤ max, 1 ≤ ratio ≤ max/min). Resources are visited in
// name order where kube's order is a map's.
import { duplicate, type FieldError, forbidden, invalid, required } from "../errors/field-error.js";
import { child, index, key } from "../errors/field-path.js";
import type { KubeObject } from "../object/kube-object.js";
import type { Strategy } from "../registry/strategy.js";
import { qualifiedNameErrors } from "../selection/label-validation.js";
import {
  compareQuantity,
  countQuantity,
  formatQuantity,
  maxMilliValue,
  milliValue,
  type Quantity,
  readMilliQuantity,
  wholeValue,
} from "../validation/quantity-arithmetic.js";
import {
  isExtendedResourceName,
  isHugePageResourceName,
  isNativeResourceName,
  isStandardResourceName,
} from "../validation/resource-names.js";
import { asObject, type JsonObject, listItems } from "../validation/walk.js";

function fillFrom(item: JsonObject, target: string, source: string): void {
  const from = asObject(item[source]);
  if (from === undefined) return;
  const into = { ...asObject(item[target]) };
  for (const [resource, quantity] of Object.entries(from)) into[resource] ??= quantity;
  if (Object.keys(into).length > 0) item[target] = into;
}

const standardLimitTypes = new Set(["Pod", "Container", "PersistentVolumeClaim"]);
const standardContainerResources = new Set(["cpu", "memory", "ephemeral-storage"]);

function resourceNameErrors(name: string, path: string): FieldError[] {
  const errs = qualifiedNameErrors(name).map((msg) => invalid(path, name, msg));
  if (errs.length > 0) return errs;
  if (!name.includes("/") && !isStandardResourceName(name)) {
    errs.push(invalid(path, name, "must be a standard resource type or fully qualified"));
  }
  return errs;
}

function containerResourceNameErrors(name: string, path: string): FieldError[] {
  const errs = resourceNameErrors(name, path);
  if (!name.includes("/")) {
    if (!standardContainerResources.has(name) && !isHugePageResourceName(name)) {
      errs.push(invalid(path, name, "must be a standard resource for containers"));
    }
  } else if (!isNativeResourceName(name) && !isExtendedResourceName(name)) {
    errs.push(invalid(path, name, "doesn't follow extended resource name standard"));
  }
  return errs;
}

function limitTypeErrors(type: string, path: string): FieldError[] {
  const errs = qualifiedNameErrors(type).map((msg) => invalid(path, type, msg));
  if (errs.length === 0 && !type.includes("/") && !standardLimitTypes.has(type)) {
    errs.push(invalid(path, type, "must be a standard limit type or fully qualified"));
  }
  return errs;
}

/** One bound field of an item: its quantities by resource, each name checked for the item's type. */
function readBounds(item: JsonObject, field: string, path: string, errs: FieldError[]): Map<string, Quantity> {
  const type = String(item.type ?? "");
  const bounds = new Map<string, Quantity>();
  for (const [name, raw] of Object.entries(asObject(item[field]) ?? {})) {
    const at = key(child(path, field), name);
    errs.push(...(type === "Pod" || type === "Container" ? containerResourceNameErrors : resourceNameErrors)(name, at));
    const quantity = readMilliQuantity(raw);
    if (quantity !== undefined) bounds.set(name, quantity);
  }
  return bounds;
}

/** The largest ratio min and max allow, in Go's %f. */
function ratioErrors(ratio: Quantity, min: Quantity, max: Quantity, at: string): FieldError[] {
  let ratioValue = Number(wholeValue(ratio));
  let minValue = wholeValue(min);
  let maxValue = wholeValue(max);
  if (wholeValue(ratio) < maxMilliValue && minValue < maxMilliValue && maxValue < maxMilliValue) {
    ratioValue = Number(milliValue(ratio)) / 1000;
    minValue = milliValue(min);
    maxValue = milliValue(max);
  }
  const allowed = Number(maxValue) / Number(minValue);
  if (ratioValue <= allowed) return [];
  const text = formatQuantity(ratio);
  return [invalid(at, text, `ratio ${text} is greater than max/min = ${allowed.toFixed(6)}`)];
}

function validateItem(item: JsonObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const type = String(item.type ?? "");
  const max = readBounds(item, "max", path, errs);
  const min = readBounds(item, "min", path, errs);
  let defaults = new Map<string, Quantity>();
  let defaultRequests = new Map<string, Quantity>();
  if (type === "Pod") {
    for (const field of ["default", "defaultRequest"]) {
      if (Object.keys(asObject(item[field]) ?? {}).length > 0) {
        errs.push(forbidden(child(path, field), "may not be specified when `type` is 'Pod'"));
      }
    }
  } else {
    defaults = readBounds(item, "default", path, errs);
    defaultRequests = readBounds(item, "defaultRequest", path, errs);
  }
  if (type === "PersistentVolumeClaim" && !min.has("storage") && !max.has("storage")) {
    errs.push(
      required(child(path, "limits"), "either minimum or maximum storage value is required, but neither was provided"),
    );
  }
  const ratios = readBounds(item, "maxLimitRequestRatio", path, errs);
  const names = new Set([
    ...max.keys(),
    ...min.keys(),
    ...defaults.keys(),
    ...defaultRequests.keys(),
    ...ratios.keys(),
  ]);
  for (const name of [...names].sort()) {
    const lo = min.get(name);
    const hi = max.get(name);
    const dflt = defaults.get(name);
    const request = defaultRequests.get(name);
    const ratio = ratios.get(name);
    const at = (field: string) => key(child(path, field), name);
    if (lo && hi && compareQuantity(lo, hi) > 0) {
      errs.push(
        invalid(
          at("min"),
          formatQuantity(lo),
          `min value ${formatQuantity(lo)} is greater than max value ${formatQuantity(hi)}`,
        ),
      );
    }
    if (request && lo && compareQuantity(lo, request) > 0) {
      const detail = `min value ${formatQuantity(lo)} is greater than default request value ${formatQuantity(request)}`;
      errs.push(invalid(at("defaultRequest"), formatQuantity(request), detail));
    }
    if (request && hi && compareQuantity(request, hi) > 0) {
      const detail = `default request value ${formatQuantity(request)} is greater than max value ${formatQuantity(hi)}`;
      errs.push(invalid(at("defaultRequest"), formatQuantity(request), detail));
    }
    if (request && dflt && compareQuantity(request, dflt) > 0) {
      const detail = `default request value ${formatQuantity(request)} is greater than default limit value ${formatQuantity(dflt)}`;
      errs.push(invalid(at("defaultRequest"), formatQuantity(request), detail));
    }
    // kube reports min and max as the values of these two (not the default).
    if (dflt && lo && compareQuantity(lo, dflt) > 0) {
      const detail = `min value ${formatQuantity(lo)} is greater than default value ${formatQuantity(dflt)}`;
      errs.push(invalid(at("default"), formatQuantity(lo), detail));
    }
    if (dflt && hi && compareQuantity(dflt, hi) > 0) {
      const detail = `default value ${formatQuantity(dflt)} is greater than max value ${formatQuantity(hi)}`;
      errs.push(invalid(at("default"), formatQuantity(hi), detail));
    }
    if (ratio && compareQuantity(ratio, countQuantity(1)) < 0) {
      errs.push(
        invalid(at("maxLimitRequestRatio"), formatQuantity(ratio), `ratio ${formatQuantity(ratio)} is less than 1`),
      );
    }
    if (ratio && lo && hi) errs.push(...ratioErrors(ratio, lo, hi, at("maxLimitRequestRatio")));
    // Resources that cannot be overcommitted (extended resources, hugepages) need default = defaultRequest.
    const overcommit = isNativeResourceName(name) && !isHugePageResourceName(name);
    if (!overcommit && dflt && request && compareQuantity(dflt, request) !== 0) {
      const detail = `default value ${formatQuantity(dflt)} must equal to defaultRequest value ${formatQuantity(request)} in ${name}`;
      errs.push(invalid(at("defaultRequest"), formatQuantity(request), detail));
    }
  }
  return errs;
}

export const strategy: Strategy = {
  allowCreateOnUpdate: true,
  default(obj: KubeObject): void {
    for (const entry of listItems(asObject(obj.spec)?.limits)) {
      const item = asObject(entry);
      if (item?.type !== "Container") continue;
      fillFrom(item, "default", "max");
      fillFrom(item, "defaultRequest", "default");
      fillFrom(item, "defaultRequest", "min");
    }
  },
  validate(obj: KubeObject): FieldError[] {
    const errs: FieldError[] = [];
    const seen = new Set<string>();
    const path = "spec.limits";
    listItems(asObject(obj.spec)?.limits).forEach((entry, i) => {
      const item = asObject(entry);
      if (item === undefined) return;
      const at = index(path, i);
      const type = String(item.type ?? "");
      errs.push(...limitTypeErrors(type, child(at, "type")));
      if (seen.has(type)) errs.push(duplicate(child(at, "type"), type));
      seen.add(type);
      errs.push(...validateItem(item, at));
    });
    return errs;
  },
};
