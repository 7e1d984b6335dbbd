// Kubernetes' authorization library (k8s.io/apiserver/pkg/cel/library/authz.go): the `authorizer` variable's
// type and its builders, `authorizer.group(g).resource(r).subresource(s).namespace(n).name(n).check(verb)`,
// `authorizer.path(p).check(httpVerb)`, `authorizer.serviceAccount(ns, name)` and the decision's
// `allowed()`, `reason()`, `errored()`, `error()` ("kubernetes.authz", from 1.27); and `fieldSelector` /
// `labelSelector` on a resource check ("kubernetes.authzSelectors", gate AuthorizeWithSelectors, from 1.31).
//
// CEL evaluation is synchronous in kapi, so `check()` calls a synchronous CelAuthorizer: callers that
// authorize asynchronously (webhooks) must wrap an authorizer that answers from prefetched decisions or
// from a synchronous cache.

import type { Attributes, Decision } from "../../../access/authorizer.js";
import { selectorAttribute } from "../../../access/request-attributes.js";
import { serviceAccountGroups, serviceAccountUsername, type UserInfo } from "../../../access/user-info.js";
import { parseFieldSelector } from "../../../selection/field-selector.js";
import { parseLabelSelector } from "../../../selection/parse-label-selector.js";
import { dnsLabelErrors, dnsSubdomainErrors } from "../../../validation/name-formats.js";
import { BoolType, type CelType, opaqueType, StringType } from "../../common/cel-types.js";
import type { CelLibrary, FunctionDecl, OverloadImpl, VariableDecl } from "../../common/decls.js";
import { CelError, CelOpaque, type CelValue } from "../../common/values.js";
import { declareFunction, memberOverload } from "../standard/declare.js";
import { noSuchOverload } from "../standard/overload-errors.js";

export const AuthorizerType = opaqueType("kubernetes.authorization.Authorizer");
export const PathCheckType = opaqueType("kubernetes.authorization.PathCheck");
export const GroupCheckType = opaqueType("kubernetes.authorization.GroupCheck");
export const ResourceCheckType = opaqueType("kubernetes.authorization.ResourceCheck");
export const DecisionType = opaqueType("kubernetes.authorization.Decision");

/** What `check()` asks. It must answer synchronously (see the note at the top of this file). */
export interface CelAuthorizer {
  authorize(attributes: Attributes): Decision;
}

/**
 * Kubernetes' receiverOnlyObjectVal: a value with functions but no fields. Comparing two of them means
 * nothing (cel-go answers "no such overload"), so a value equals only itself.
 */
abstract class ReceiverOnlyValue extends CelOpaque {
  equals(other: CelValue): boolean {
    return other === this;
  }
}

/** The `authorizer` value: an authorizer and the user checks are made for. */
export class AuthorizerValue extends ReceiverOnlyValue {
  readonly celType = AuthorizerType;
  constructor(
    readonly authorizer: CelAuthorizer,
    readonly user: UserInfo,
  ) {
    super();
  }
}

export class PathCheckValue extends ReceiverOnlyValue {
  readonly celType = PathCheckType;
  constructor(
    readonly authorizer: AuthorizerValue,
    readonly path: string,
  ) {
    super();
  }
}

export class GroupCheckValue extends ReceiverOnlyValue {
  readonly celType = GroupCheckType;
  constructor(
    readonly authorizer: AuthorizerValue,
    readonly group: string,
  ) {
    super();
  }
}

interface ResourceCheckFields {
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
  readonly name: string;
  readonly fieldSelector: string;
  readonly labelSelector: string;
}

export class ResourceCheckValue extends ReceiverOnlyValue {
  readonly celType = ResourceCheckType;
  constructor(
    readonly groupCheck: GroupCheckValue,
    readonly fields: ResourceCheckFields,
  ) {
    super();
  }
  /** A copy with some fields replaced (the builders never change the receiver). */
  with(changes: Partial<ResourceCheckFields>): ResourceCheckValue {
    return new ResourceCheckValue(this.groupCheck, { ...this.fields, ...changes });
  }
}

export class DecisionValue extends ReceiverOnlyValue {
  readonly celType = DecisionType;
  constructor(readonly decision: Decision) {
    super();
  }
}

/** The `authorizer` variable's value. */
export function newAuthorizerValue(authorizer: CelAuthorizer, user: UserInfo): AuthorizerValue {
  return new AuthorizerValue(authorizer, user);
}

/** The request being admitted, as a resource check (admission's `authorizer.requestResource`). */
export interface RequestResource {
  readonly group: string;
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
  readonly name: string;
}

/** `authorizer.requestResource`: a resource check preset to the request's resource, namespace and name. */
export function newRequestResourceCheck(authorizer: AuthorizerValue, request: RequestResource): ResourceCheckValue {
  return new ResourceCheckValue(new GroupCheckValue(authorizer, request.group), {
    resource: request.resource,
    subresource: request.subresource,
    namespace: request.namespace,
    name: request.name,
    fieldSelector: "",
    labelSelector: "",
  });
}

/** The variables admission declares: `authorizer` and `authorizer.requestResource`. */
export const authorizerVariables: readonly VariableDecl[] = [
  { name: "authorizer", type: AuthorizerType },
  { name: "authorizer.requestResource", type: ResourceCheckType },
];

/** The user.Info of a service account (serviceaccount.ServiceAccountInfo.UserInfo). */
export function serviceAccountUser(namespace: string, name: string): UserInfo {
  return {
    name: serviceAccountUsername(namespace, name),
    uid: "",
    groups: serviceAccountGroups(namespace),
  };
}

/** Runs the authorizer; one that throws counts as an errored "no opinion", as an error return does in Go. */
function authorize(authorizer: AuthorizerValue, attributes: Attributes): DecisionValue {
  try {
    return new DecisionValue(authorizer.authorizer.authorize(attributes));
  } catch (e) {
    return new DecisionValue({ decision: "noOpinion", reason: "", error: e instanceof Error ? e.message : String(e) });
  }
}

function checkResource(check: ResourceCheckValue, verb: string): DecisionValue {
  const f = check.fields;
  const authorizer = check.groupCheck.authorizer;
  const fieldSelector = selectorAttribute(f.fieldSelector, parseFieldSelector);
  const labelSelector = selectorAttribute(f.labelSelector, parseLabelSelector);
  return authorize(authorizer, {
    user: authorizer.user,
    verb,
    resourceRequest: true,
    apiGroup: check.groupCheck.group,
    apiVersion: "*",
    resource: f.resource,
    subresource: f.subresource,
    namespace: f.namespace,
    name: f.name,
    path: "",
    ...(fieldSelector && { fieldSelector }),
    ...(labelSelector && { labelSelector }),
  });
}

function checkPath(check: PathCheckValue, verb: string): DecisionValue {
  const authorizer = check.authorizer;
  return authorize(authorizer, {
    user: authorizer.user,
    verb,
    resourceRequest: false,
    apiGroup: "",
    apiVersion: "",
    resource: "",
    subresource: "",
    namespace: "",
    name: "",
    path: check.path,
  });
}

/** Go's strings.TrimSpace(s) == "": only Unicode white space. */
function isBlank(s: string): boolean {
  return /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$/.test(s);
}

/** A builder taking one string argument on a receiver of class C. */
function withString<C>(
  receiver: abstract new (...args: never[]) => C,
  build: (r: C, s: string) => CelValue,
): OverloadImpl {
  return ([r, s]) => (r instanceof receiver && typeof s === "string" ? build(r as C, s) : noSuchOverload());
}

function resourceField(name: keyof ResourceCheckFields): OverloadImpl {
  return withString(ResourceCheckValue, (check, value) => check.with({ [name]: value }));
}

/** An authorization check costs so much that an expression can afford only two (cost.go). */
const CHECK_COST = 350_000;
const checkCost = { estimate: () => ({ min: CHECK_COST, max: CHECK_COST }), actual: () => CHECK_COST };

function builder(name: string, id: string, receiver: CelType, result: CelType, impl: OverloadImpl): FunctionDecl {
  return declareFunction(name, memberOverload(id, [receiver, StringType], result, impl));
}

function decisionFunction(name: string, id: string, result: CelType, read: (d: Decision) => CelValue) {
  return declareFunction(
    name,
    memberOverload(id, [DecisionType], result, ([d]) =>
      d instanceof DecisionValue ? read(d.decision) : noSuchOverload(),
    ),
  );
}

const functions: FunctionDecl[] = [
  builder(
    "path",
    "authorizer_path",
    AuthorizerType,
    PathCheckType,
    withString(AuthorizerValue, (authorizer, path) =>
      isBlank(path) ? new CelError("path must not be empty") : new PathCheckValue(authorizer, path),
    ),
  ),
  builder(
    "group",
    "authorizer_group",
    AuthorizerType,
    GroupCheckType,
    withString(AuthorizerValue, (authorizer, group) => new GroupCheckValue(authorizer, group)),
  ),
  declareFunction(
    "serviceAccount",
    memberOverload(
      "authorizer_serviceaccount",
      [AuthorizerType, StringType, StringType],
      AuthorizerType,
      ([authorizer, namespace, name]) => {
        if (!(authorizer instanceof AuthorizerValue) || typeof namespace !== "string" || typeof name !== "string") {
          return noSuchOverload();
        }
        if (dnsSubdomainErrors(name).length > 0) return new CelError("Invalid service account name");
        if (dnsLabelErrors(namespace).length > 0) return new CelError("Invalid service account namespace");
        return new AuthorizerValue(authorizer.authorizer, serviceAccountUser(namespace, name));
      },
    ),
  ),
  builder(
    "resource",
    "groupcheck_resource",
    GroupCheckType,
    ResourceCheckType,
    withString(GroupCheckValue, (group, resource) =>
      isBlank(resource)
        ? new CelError("resource must not be empty")
        : new ResourceCheckValue(group, {
            resource,
            subresource: "",
            namespace: "",
            name: "",
            fieldSelector: "",
            labelSelector: "",
          }),
    ),
  ),
  builder(
    "subresource",
    "resourcecheck_subresource",
    ResourceCheckType,
    ResourceCheckType,
    resourceField("subresource"),
  ),
  builder("namespace", "resourcecheck_namespace", ResourceCheckType, ResourceCheckType, resourceField("namespace")),
  builder("name", "resourcecheck_name", ResourceCheckType, ResourceCheckType, resourceField("name")),
  declareFunction(
    "check",
    memberOverload(
      "pathcheck_check",
      [PathCheckType, StringType],
      DecisionType,
      withString(PathCheckValue, checkPath),
      checkCost,
    ),
    memberOverload(
      "resourcecheck_check",
      [ResourceCheckType, StringType],
      DecisionType,
      withString(ResourceCheckValue, checkResource),
      checkCost,
    ),
  ),
  decisionFunction("errored", "decision_errored", BoolType, (d) => d.error !== undefined),
  decisionFunction("error", "decision_error", StringType, (d) => d.error ?? ""),
  decisionFunction("allowed", "decision_allowed", BoolType, (d) => d.decision === "allow"),
  decisionFunction("reason", "decision_reason", StringType, (d) => d.reason),
];

const authorizationTypes: readonly CelType[] = [
  AuthorizerType,
  PathCheckType,
  GroupCheckType,
  ResourceCheckType,
  DecisionType,
];

export const authorizerLibrary: CelLibrary = { name: "kubernetes.authz", functions, types: authorizationTypes };

/** `fieldSelector` and `labelSelector` on a resource check (gate AuthorizeWithSelectors). */
export const authorizerSelectorsLibrary: CelLibrary = {
  name: "kubernetes.authzSelectors",
  functions: [
    builder(
      "fieldSelector",
      "authorizer_fieldselector",
      ResourceCheckType,
      ResourceCheckType,
      resourceField("fieldSelector"),
    ),
    builder(
      "labelSelector",
      "authorizer_labelselector",
      ResourceCheckType,
      ResourceCheckType,
      resourceField("labelSelector"),
    ),
  ],
  types: [ResourceCheckType],
};
