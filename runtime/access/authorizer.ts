// Authorizers: each answers Allow, Deny or NoOpinion for a request's attributes (k8s.io/apiserver's
// authorizer.Authorizer) and lists the rules a user has in a namespace (authorizer.RuleResolver, for
// SelfSubjectRulesReview). An answer is synchronous when the authorizer needs no I/O (RBAC, Node, ABAC),
// which CEL's `authorizer` variable relies on; the webhook answers from its cache synchronously too.

import type { FieldRequirement } from "../selection/field-selector.js";
import type { LabelRequirement } from "../selection/label-selector.js";
import type { UserInfo } from "./user-info.js";

/** A selector a request carries: its requirements, or why it did not parse. */
export interface SelectorAttribute<R> {
  readonly requirements?: readonly R[];
  readonly error?: string;
}

/** authorizer.AttributesRecord: what is asked, by whom. */
export interface Attributes {
  readonly user: UserInfo;
  /** The API verb for resource requests, the lower-case HTTP method for others. */
  readonly verb: string;
  readonly resourceRequest: boolean;
  readonly apiGroup: string;
  readonly apiVersion: string;
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
  readonly name: string;
  /** The request path, for non-resource requests. */
  readonly path: string;
  readonly fieldSelector?: SelectorAttribute<FieldRequirement>;
  readonly labelSelector?: SelectorAttribute<LabelRequirement>;
}

export interface Decision {
  readonly decision: "allow" | "deny" | "noOpinion";
  readonly reason: string;
  /** Set when the authorizer failed (a webhook it could not reach); an error with a decision still decides. */
  readonly error?: string;
}

export interface ResourceRule {
  verbs: string[];
  apiGroups: string[];
  resources: string[];
  resourceNames: string[];
}

export interface NonResourceRule {
  verbs: string[];
  nonResourceURLs: string[];
}

/** What a user may do in a namespace, as SelfSubjectRulesReview reports it. */
export interface SubjectRules {
  resourceRules: ResourceRule[];
  nonResourceRules: NonResourceRule[];
  /** True when an authorizer could not list its rules (a webhook, Node, ABAC) or one failed. */
  incomplete: boolean;
  evaluationError?: string;
}

export interface Authorizer {
  authorize(attributes: Attributes): Decision | Promise<Decision>;
  rulesFor(user: UserInfo, namespace: string): SubjectRules | Promise<SubjectRules>;
}

export const noOpinion: Decision = { decision: "noOpinion", reason: "" };
