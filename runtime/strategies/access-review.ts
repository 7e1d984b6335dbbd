// What SubjectAccessReview, SelfSubjectAccessReview and LocalSubjectAccessReview share, as kube-apiserver
// does it (pkg/apis/authorization/validation, pkg/registry/authorization/util): the attributes a review
// asks about read as Go decodes them, their validation, the authorizer attributes they become (selectors
// included, as AuthorizeWithSelectors has it), and the status the authorizer's decision is answered with.

import type { Attributes, Decision, SelectorAttribute } from "../access/authorizer.js";
import type { UserInfo } from "../access/user-info.js";
import { aggregateMessage } from "../errors/aggregate.js";
import type { FieldError } from "../errors/field-error.js";
import { forbidden, invalid, required } from "../errors/field-error.js";
import { child, index } from "../errors/field-path.js";
import { formatFieldErrors } from "../errors/format-field-error.js";
import { goQuote } from "../errors/go-format.js";
import type { KubeObject } from "../object/kube-object.js";
import { type FieldRequirement, parseFieldSelector } from "../selection/field-selector.js";
import { type LabelOperator, type LabelRequirement, requirementErrors } from "../selection/label-selector.js";
import { labelValueErrors, qualifiedNameErrors } from "../selection/label-validation.js";
import { parseLabelSelector } from "../selection/parse-label-selector.js";
import type { ParseResult } from "../selection/parse-result.js";
import { asObject, type JsonObject, listItems } from "../validation/walk.js";
import { isZero, omitEmpty, text, texts } from "./review-fields.js";

export const authorizationApiVersion = "authorization.k8s.io/v1";
/** The group the Invalid errors name: kube takes the kind from the decoded object, which has none. */
export const authorizationGroupKind = { group: "authorization.k8s.io", name: "" };

interface SelectorRequirement {
  key: string;
  operator: string;
  values: string[];
}

interface SelectorAttributes {
  rawSelector: string;
  requirements: SelectorRequirement[];
}

export interface ResourceAttributes {
  namespace: string;
  verb: string;
  group: string;
  version: string;
  resource: string;
  subresource: string;
  name: string;
  fieldSelector?: SelectorAttributes;
  labelSelector?: SelectorAttributes;
}

interface NonResourceAttributes {
  path: string;
  verb: string;
}

/** What a review asks about: exactly one of the two, once validated. */
export interface ReviewAttributes {
  resourceAttributes?: ResourceAttributes;
  nonResourceAttributes?: NonResourceAttributes;
}

function readSelector(value: unknown): SelectorAttributes | undefined {
  const selector = asObject(value);
  if (selector === undefined) return undefined;
  const requirements = listItems(selector.requirements).map((item) => {
    const r = asObject(item) ?? {};
    return { key: text(r.key), operator: text(r.operator), values: texts(r.values) };
  });
  return { rawSelector: text(selector.rawSelector), requirements };
}

/** The attributes of a spec; a null or missing one is absent, as Go's nil pointer. */
export function readAttributes(spec: JsonObject): ReviewAttributes {
  const out: ReviewAttributes = {};
  const resource = asObject(spec.resourceAttributes);
  if (resource !== undefined) {
    const fieldSelector = readSelector(resource.fieldSelector);
    const labelSelector = readSelector(resource.labelSelector);
    out.resourceAttributes = {
      namespace: text(resource.namespace),
      verb: text(resource.verb),
      group: text(resource.group),
      version: text(resource.version),
      resource: text(resource.resource),
      subresource: text(resource.subresource),
      name: text(resource.name),
      ...(fieldSelector && { fieldSelector }),
      ...(labelSelector && { labelSelector }),
    };
  }
  const nonResource = asObject(spec.nonResourceAttributes);
  if (nonResource !== undefined) {
    out.nonResourceAttributes = { path: text(nonResource.path), verb: text(nonResource.verb) };
  }
  return out;
}

/**
 * An Invalid error whose value Go prints with `%#v` (an internal struct kube passes as the bad value):
 * the value goes into the detail so that it is printed bare.
 */
export function invalidStruct(field: string, attributes: NonResourceAttributes, detail: string): FieldError {
  const value = `authorization.NonResourceAttributes{Path:${goQuote(attributes.path)}, Verb:${goQuote(attributes.verb)}}`;
  return { type: "FieldValueInvalid", field, detail: `${value}: ${detail}` };
}

/** The two checks every review spec starts with: one kind of attributes, not both, not none. */
export function attributeChoiceErrors(a: ReviewAttributes): FieldError[] {
  const errs: FieldError[] = [];
  if (a.resourceAttributes !== undefined && a.nonResourceAttributes !== undefined) {
    errs.push(
      invalidStruct(
        "spec.nonResourceAttributes",
        a.nonResourceAttributes,
        "cannot be specified in combination with resourceAttributes",
      ),
    );
  }
  if (a.resourceAttributes === undefined && a.nonResourceAttributes === undefined) {
    errs.push(
      invalid(
        "spec.resourceAttributes",
        "null",
        "exactly one of nonResourceAttributes or resourceAttributes must be specified",
      ),
    );
  }
  return errs;
}

/** validateFieldSelectorAttributes / validateLabelSelectorAttributes, unknown operators allowed. */
function selectorErrors(selector: SelectorAttributes | undefined, path: string, labels: boolean): FieldError[] {
  if (selector === undefined) return [];
  const errs: FieldError[] = [];
  if (selector.rawSelector !== "" && selector.requirements.length > 0) {
    errs.push(
      invalid(child(path, "rawSelector"), selector.rawSelector, "may not specified at the same time as requirements"),
    );
  }
  if (selector.rawSelector === "" && selector.requirements.length === 0) {
    errs.push(
      required(child(path, "requirements"), `when ${path} is specified, requirements or rawSelector is required`),
    );
  }
  selector.requirements.forEach((r, i) => {
    const at = index(child(path, "requirements"), i);
    const valuesPath = child(at, "values");
    if (!labels && r.key === "") errs.push(required(child(at, "key"), "must be specified"));
    if ((r.operator === "In" || r.operator === "NotIn") && r.values.length === 0) {
      errs.push(required(valuesPath, "must be specified when `operator` is 'In' or 'NotIn'"));
    }
    if ((r.operator === "Exists" || r.operator === "DoesNotExist") && r.values.length > 0) {
      errs.push(forbidden(valuesPath, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
    }
    if (!labels) return;
    for (const msg of qualifiedNameErrors(r.key)) errs.push(invalid(child(at, "key"), r.key, msg));
    r.values.forEach((v, j) => {
      for (const msg of labelValueErrors(v)) errs.push(invalid(index(valuesPath, j), v, msg));
    });
  });
  return errs;
}

/** validateResourceAttributes: the selectors a resource check carries. */
export function resourceAttributeErrors(a: ReviewAttributes): FieldError[] {
  const resource = a.resourceAttributes;
  if (resource === undefined) return [];
  return [
    ...selectorErrors(resource.fieldSelector, "spec.resourceAttributes.fieldSelector", false),
    ...selectorErrors(resource.labelSelector, "spec.resourceAttributes.labelSelector", true),
  ];
}

/** The reviews' "metadata must be empty": nothing set but managedFields (and the `allowed` fields). */
export function metadataErrors(obj: KubeObject, allowed: readonly string[], detail: string): FieldError[] {
  const meta = asObject(obj.metadata) ?? {};
  const set = Object.entries(meta).some(([k, v]) => k !== "managedFields" && !allowed.includes(k) && !isZero(v));
  return set ? [invalid("metadata", meta, detail)] : [];
}

/** A selector's attribute; none when nothing remains of it, as Go's nil requirements without an error. */
function selector<R>(requirements: R[], errors: string[]): SelectorAttribute<R> | undefined {
  if (requirements.length === 0 && errors.length === 0) return undefined;
  return {
    ...(requirements.length > 0 && { requirements }),
    ...(errors.length > 0 && { error: aggregateMessage(errors) }),
  };
}

/** fieldSelectorAsSelector: a requirement kube cannot apply is dropped with an error, the rest kept. */
function fieldRequirements(
  requirements: readonly SelectorRequirement[],
): SelectorAttribute<FieldRequirement> | undefined {
  const out: FieldRequirement[] = [];
  const errors: string[] = [];
  for (const r of requirements) {
    if (r.values.length > 1) errors.push("fieldSelectors do not yet support multiple values");
    else if (r.operator === "In" || r.operator === "NotIn") {
      const value = r.values[0];
      if (value === undefined)
        errors.push(`fieldSelectors ${r.operator === "In" ? "in" : "not in"} must have one value`);
      else out.push({ field: r.key, operator: r.operator === "In" ? "=" : "!=", value });
    } else if (r.operator === "Exists" || r.operator === "DoesNotExist") {
      errors.push(`fieldSelectors do not yet support ${r.operator}`);
    } else errors.push(`${goQuote(r.operator)} is not a valid field selector operator`);
  }
  return selector(out, errors);
}

const labelOperators: Readonly<Record<string, LabelOperator>> = {
  In: "in",
  NotIn: "notin",
  Exists: "exists",
  DoesNotExist: "!",
};

/** labelSelectorAsSelector: as for fields, an unusable requirement is dropped with an error. */
function labelRequirements(
  requirements: readonly SelectorRequirement[],
): SelectorAttribute<LabelRequirement> | undefined {
  const out: LabelRequirement[] = [];
  const errors: string[] = [];
  for (const r of requirements) {
    const operator = labelOperators[r.operator];
    if (operator === undefined) {
      errors.push(`${goQuote(r.operator)} is not a valid label selector operator`);
      continue;
    }
    const requirement = { key: r.key, operator, values: r.values };
    const errs = requirementErrors(requirement);
    if (errs.length > 0) errors.push(formatFieldErrors(errs));
    else out.push(requirement);
  }
  return selector(out, errors);
}

/** ResourceAttributesFrom for one selector: its requirements when it has them, else its raw form parsed. */
function selectorAttribute<R>(
  s: SelectorAttributes | undefined,
  fromRequirements: (requirements: readonly SelectorRequirement[]) => SelectorAttribute<R> | undefined,
  parse: (raw: string) => ParseResult<{ requirements: readonly R[] }>,
): SelectorAttribute<R> | undefined {
  if (s === undefined) return undefined;
  if (s.requirements.length > 0) return fromRequirements(s.requirements);
  if (s.rawSelector === "") return undefined;
  const parsed = parse(s.rawSelector);
  return parsed.ok ? selector([...parsed.selector.requirements], []) : { error: parsed.error };
}

/** AuthorizationAttributesFrom: an empty version means every version. */
export function reviewAttributes(user: UserInfo, a: ReviewAttributes): Attributes {
  const r = a.resourceAttributes;
  if (r === undefined) {
    const n = a.nonResourceAttributes ?? { path: "", verb: "" };
    const none = { apiGroup: "", apiVersion: "", resource: "", subresource: "", namespace: "", name: "" };
    return { user, verb: n.verb, resourceRequest: false, ...none, path: n.path };
  }
  const fieldSelector = selectorAttribute(r.fieldSelector, fieldRequirements, parseFieldSelector);
  const labelSelector = selectorAttribute(r.labelSelector, labelRequirements, parseLabelSelector);
  return {
    user,
    verb: r.verb,
    resourceRequest: true,
    apiGroup: r.group,
    apiVersion: r.version === "" ? "*" : r.version,
    resource: r.resource,
    subresource: r.subresource,
    namespace: r.namespace,
    name: r.name,
    path: "",
    ...(fieldSelector && { fieldSelector }),
    ...(labelSelector && { labelSelector }),
  };
}

/** BuildEvaluationError: the authorizer's error, then a word on each selector that did not parse. */
function evaluationError(decision: Decision, attributes: Attributes): string {
  const parts = decision.error === undefined || decision.error === "" ? [] : [decision.error];
  for (const [name, s] of [
    ["fieldSelector", attributes.fieldSelector],
    ["labelSelector", attributes.labelSelector],
  ] as const) {
    if (s?.error === undefined) continue;
    const how = (s.requirements?.length ?? 0) > 0 ? "partially ignored" : "ignored";
    parts.push(`spec.resourceAttributes.${name} ${how} due to parse error`);
  }
  return parts.join("; ");
}

/** SubjectAccessReviewStatus, as Go encodes it: `allowed` always, the rest when set. */
export async function reviewStatus(
  authorizer: { authorize(a: Attributes): Decision | Promise<Decision> },
  attributes: Attributes,
): Promise<JsonObject> {
  const decision = await authorizer.authorize(attributes);
  const error = evaluationError(decision, attributes);
  return {
    allowed: decision.decision === "allow",
    ...(decision.decision === "deny" && { denied: true }),
    ...(decision.reason !== "" && { reason: decision.reason }),
    ...(error !== "" && { evaluationError: error }),
  };
}

function selectorJson(s: SelectorAttributes | undefined): JsonObject | undefined {
  if (s === undefined) return undefined;
  const requirements = s.requirements.map((r) => ({
    key: r.key,
    operator: r.operator,
    ...(r.values.length > 0 && { values: r.values }),
  }));
  return { ...omitEmpty("rawSelector", s.rawSelector), ...(requirements.length > 0 && { requirements }) };
}

/** The attributes as the answer echoes them: Go's field order, empty fields left out. */
export function attributesJson(a: ReviewAttributes): JsonObject {
  const out: JsonObject = {};
  const r = a.resourceAttributes;
  if (r !== undefined) {
    const fieldSelector = selectorJson(r.fieldSelector);
    const labelSelector = selectorJson(r.labelSelector);
    out.resourceAttributes = {
      ...omitEmpty("namespace", r.namespace),
      ...omitEmpty("verb", r.verb),
      ...omitEmpty("group", r.group),
      ...omitEmpty("version", r.version),
      ...omitEmpty("resource", r.resource),
      ...omitEmpty("subresource", r.subresource),
      ...omitEmpty("name", r.name),
      ...(fieldSelector && { fieldSelector }),
      ...(labelSelector && { labelSelector }),
    };
  }
  const n = a.nonResourceAttributes;
  if (n !== undefined) out.nonResourceAttributes = { ...omitEmpty("path", n.path), ...omitEmpty("verb", n.verb) };
  return out;
}
