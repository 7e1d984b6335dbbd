// The `request` variable of admission expressions: kube's AdmissionRequest as CEL sees it, both its
// declared type (so `request.nmae` fails type checking) and its value for one request.

import type { UserInfo } from "../../access/user-info.js";
import {
  BoolType,
  type CelType,
  DynType,
  type FieldDecl,
  listType,
  mapType,
  objectType,
  StringType,
} from "../../cel/common/cel-types.js";
import type { Operation } from "../admission.js";
import type { RuleRequest } from "./match-resources.js";

function object(name: string, fields: Record<string, CelType>): CelType {
  return objectType(name, new Map<string, FieldDecl>(Object.entries(fields).map(([k, type]) => [k, { type }])));
}

const groupVersionKind = (name: string) => object(name, { group: StringType, version: StringType, kind: StringType });
const groupVersionResource = (name: string) =>
  object(name, { group: StringType, version: StringType, resource: StringType });

/** kube's request type: kind.apis.admission.k8s.io.v1.AdmissionRequest's fields visible to CEL. */
export const admissionRequestType: CelType = object("kubernetes.AdmissionRequest", {
  kind: groupVersionKind("kubernetes.AdmissionRequest.Kind"),
  resource: groupVersionResource("kubernetes.AdmissionRequest.Resource"),
  subResource: StringType,
  requestKind: groupVersionKind("kubernetes.AdmissionRequest.RequestKind"),
  requestResource: groupVersionResource("kubernetes.AdmissionRequest.RequestResource"),
  requestSubResource: StringType,
  name: StringType,
  namespace: StringType,
  operation: StringType,
  userInfo: object("kubernetes.AdmissionRequest.UserInfo", {
    username: StringType,
    uid: StringType,
    groups: listType(StringType),
    extra: mapType(StringType, listType(StringType)),
  }),
  dryRun: BoolType,
  options: DynType,
});

/** A rule request with its kind; kindGroup and kindVersion where a subresource's kind differs from its resource's. */
export type KindedRequest = RuleRequest & { kind: string; kindGroup?: string; kindVersion?: string };

export interface RequestFacts {
  operation: Operation;
  /** The request as sent. */
  request: KindedRequest;
  /** The version the policy matched it at (differs under Equivalent matching). */
  matched: KindedRequest;
  namespace: string;
  user: UserInfo;
  dryRun: boolean;
  /** The request's options object (admissionOptions). */
  options: Record<string, unknown> | null;
}

/** The AdmissionRequest JSON kube builds for CEL (CreateAdmissionRequest). */
export function admissionRequestJson(facts: RequestFacts): Record<string, unknown> {
  const { request, matched, user } = facts;
  return {
    kind: {
      group: matched.kindGroup ?? matched.group,
      version: matched.kindVersion ?? matched.version,
      kind: matched.kind,
    },
    resource: { group: matched.group, version: matched.version, resource: matched.resource },
    subResource: matched.subresource,
    requestKind: {
      group: request.kindGroup ?? request.group,
      version: request.kindVersion ?? request.version,
      kind: request.kind,
    },
    requestResource: { group: request.group, version: request.version, resource: request.resource },
    requestSubResource: request.subresource,
    name: request.name,
    namespace: facts.namespace,
    operation: facts.operation,
    userInfo: {
      username: user.name,
      uid: user.uid ?? "",
      groups: user.groups,
      extra: user.extra ?? {},
    },
    dryRun: facts.dryRun,
    options: facts.options,
  };
}
