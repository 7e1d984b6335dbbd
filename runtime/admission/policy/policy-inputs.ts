// What validating and mutating admission policies gather alike before they evaluate: the request at each
// version it could be matched at, the params a binding names, the request's namespace, and who in-server
// writes act as. Moved out of policy-plugin.ts so both plugins share it.

import { kinds } from "../../../generated/registry.js";
import type { UserInfo } from "../../access/user-info.js";
import {
  type AuthorizerValue,
  newRequestResourceCheck,
  type ResourceCheckValue,
} from "../../cel/library/kubernetes/authorizer-library.js";
import { namespaces } from "../../controllers/core-kinds.js";
import { StatusError } from "../../errors/status-error.js";
import type { KubeObject } from "../../object/kube-object.js";
import { kindReference } from "../../registry/kinds.js";
import { byGroupVersionKind } from "../../registry/lookup.js";
import type { ResourceKindRecord, ServedKind } from "../../registry/served-kind.js";
import type { ResourceApi } from "../../resources/resource-api.js";
import type { Labels } from "../../selection/label-selector.js";
import { type LabelSelectorObject, labelSelectorFromObject } from "../../selection/label-selector-object.js";
import { type AdmissionAttributes, isNamespaceRequest } from "../admission.js";
import type { MatchInput, RuleRequest } from "./match-resources.js";

/** An admissionregistration.k8s.io/v1 kind of the generated table (policies, bindings, webhook configurations). */
export function admissionRegistrationKind(kind: string): ServedKind {
  const record = byGroupVersionKind(kinds, "admissionregistration.k8s.io", "v1", kind);
  if (record?.resource === undefined) throw new Error(`the registry has no admissionregistration.k8s.io/v1 ${kind}`);
  return kindReference(record as ResourceKindRecord);
}

/** The resources admission policies never apply to (kube's policy plugins leave out their own kinds). */
const policyResources: ReadonlySet<string> = new Set([
  "validatingadmissionpolicies",
  "validatingadmissionpolicybindings",
  "mutatingadmissionpolicies",
  "mutatingadmissionpolicybindings",
]);

export function isPolicyResource(a: AdmissionAttributes): boolean {
  return a.kind.group === "admissionregistration.k8s.io" && policyResources.has(a.kind.resource.plural);
}

/** The `authorizer.requestResource` value of CEL expressions: checks on the request's own resource. */
export function requestResourceOf(authorizer: AuthorizerValue, a: AdmissionAttributes): ResourceCheckValue {
  return newRequestResourceCheck(authorizer, {
    group: a.kind.group,
    resource: a.kind.resource.plural,
    subresource: a.subresource ?? "",
    namespace: a.namespace ?? "",
    name: a.name,
  });
}

/** Who in-server controllers write as, for `request.userInfo` when a write has no API request. */
export const controllerUser: UserInfo = { name: "system:kube-controller-manager", groups: ["system:authenticated"] };

export interface ParamRef {
  name?: string;
  namespace?: string;
  selector?: LabelSelectorObject;
  parameterNotFoundAction?: string;
}

/** The request with its kind: the subresource's own (kindGroup, kindVersion) where it differs from the resource's. */
export type CandidateRequest = RuleRequest & { kind: string; kindGroup?: string; kindVersion?: string };

/** Who the request is from: its user, or for in-server controllers' writes `system:kube-controller-manager`. */
export function userOf(a: AdmissionAttributes): UserInfo {
  return a.request?.user ?? controllerUser;
}

/** The request as a rule sees it at one version of its resource. */
export function ruleRequest(a: AdmissionAttributes, kind: ServedKind): CandidateRequest {
  return {
    operation: a.operation,
    group: kind.group,
    version: kind.version,
    resource: kind.resource.plural,
    subresource: a.subresource ?? "",
    namespaced: kind.resource.scope === "Namespaced",
    name: a.name,
    kind: a.subresourceKind?.kind ?? kind.kind,
    ...(a.subresourceKind === undefined
      ? {}
      : { kindGroup: a.subresourceKind.group, kindVersion: a.subresourceKind.version }),
  };
}

/** The other versions this server serves of a kind's resource (custom ones included), for Equivalent matching. */
export function equivalentsOf(api: ResourceApi, kind: ServedKind): ServedKind[] {
  const found: ServedKind[] = [];
  for (const gv of api.kinds.groupVersions()) {
    if (gv.group !== kind.group || gv.version === kind.version) continue;
    const other = api.kinds.servedKind(gv.group, gv.version, kind.resource.plural);
    if (other !== undefined && !found.some((k) => k.version === other.version)) found.push(other);
  }
  return found;
}

/** The request at its own version first, then at every other served version of the same resource. */
export function candidatesOf(api: ResourceApi, a: AdmissionAttributes): CandidateRequest[] {
  return [ruleRequest(a, a.kind), ...equivalentsOf(api, a.kind).map((k) => ruleRequest(a, k))];
}

export async function namespaceObject(api: ResourceApi, name: string): Promise<KubeObject | undefined> {
  try {
    return (await api.get({ kind: namespaces, name })).object;
  } catch (error) {
    if (error instanceof StatusError && error.code === 404) return undefined;
    throw error;
  }
}

/** What a request is matched with: its namespace (the object, for CEL's `namespaceObject`) and MatchInput. */
export interface RequestMatch {
  namespace: KubeObject | undefined;
  candidates: CandidateRequest[];
  input: MatchInput;
}

/**
 * The request as matchers see it: namespaced requests match on their namespace's labels, a Namespace on its
 * own labels, other cluster-scoped requests skip namespace selectors.
 */
export async function requestMatch(api: ResourceApi, a: AdmissionAttributes): Promise<RequestMatch> {
  const namespaced = a.kind.resource.scope === "Namespaced";
  const ownNamespace = isNamespaceRequest(a) ? (a.object ?? a.oldObject) : undefined;
  const namespace = namespaced && a.namespace !== undefined ? await namespaceObject(api, a.namespace) : undefined;
  const labels = ((namespace ?? ownNamespace)?.metadata as { labels?: Labels } | undefined)?.labels;
  const candidates = candidatesOf(api, a);
  const namespaceLabels = namespaced || ownNamespace !== undefined ? (labels ?? {}) : undefined;
  return { namespace, candidates, input: { attributes: a, candidates, namespaceLabels } };
}

/** The param objects a binding names; an Error is a configuration problem. */
export async function collectParams(
  api: ResourceApi,
  paramKindRef: { apiVersion?: string; kind?: string } | undefined,
  ref: ParamRef | undefined,
  requestNamespace: string,
): Promise<unknown[] | Error> {
  if (paramKindRef === undefined) return [null];
  const { apiVersion = "", kind = "" } = paramKindRef;
  const [g, v] = apiVersion.includes("/") ? apiVersion.split("/", 2) : ["", apiVersion];
  // Any kind this server serves, custom resources included, as kube finds param kinds through its REST mapper.
  const paramKind = api.kinds.kindOf(g ?? "", v ?? "", kind);
  if (paramKind === undefined) return new Error(`paramKind kind ${kind} in ${apiVersion} is not known`);
  if (ref === undefined) return new Error("paramRef is required when the policy has a paramKind");
  const namespaced = paramKind.resource.scope === "Namespaced";
  const namespace = namespaced ? (ref.namespace ?? requestNamespace) : undefined;
  if (namespaced && namespace === "") {
    return new Error("cannot use namespaced paramRef in policy binding that matches cluster-scoped resources");
  }
  let params: unknown[];
  if (ref.name !== undefined && ref.name !== "") {
    try {
      params = [(await api.get({ kind: paramKind, namespace, name: ref.name })).object];
    } catch (error) {
      if (!(error instanceof StatusError && error.code === 404)) throw error;
      params = [];
    }
  } else {
    const selector = labelSelectorFromObject(ref.selector ?? {});
    const listed = await api.list({ kind: paramKind, namespace });
    params = listed.items
      .map((item) => item.object)
      .filter((o) => selector.ok && selector.selector.matches((o.metadata as { labels?: Labels }).labels ?? {}));
  }
  if (params.length === 0 && ref.parameterNotFoundAction === "Deny") {
    return new Error("no params found for policy binding with `Deny` parameterNotFoundAction");
  }
  return params;
}
