// Attributes for authorizer tests: a resource or non-resource request by a user, with defaults.

import type { Attributes } from "../../../runtime/access/authorizer.js";
import { requestAttributes } from "../../../runtime/access/request-attributes.js";
import type { UserInfo } from "../../../runtime/access/user-info.js";
import type { RequestInfo } from "../../../runtime/routing/request-info.js";

function info(fields: Partial<RequestInfo>): RequestInfo {
  const none = { apiPrefix: "", group: "", version: "", namespace: "", resource: "", subresource: "", name: "" };
  return { isResourceRequest: false, path: "", verb: "get", parts: [], ...none, ...fields };
}

/** A get of pods in `default` unless `fields` say otherwise. */
export function resourceRequest(user: UserInfo, fields: Partial<Attributes> = {}): Attributes {
  const base = requestAttributes(
    user,
    info({ isResourceRequest: true, apiPrefix: "api", version: "v1", namespace: "default", resource: "pods" }),
    new URLSearchParams(),
  );
  return { ...base, ...fields };
}

export function pathRequest(user: UserInfo, path: string, verb = "get"): Attributes {
  return requestAttributes(user, info({ path, verb }), new URLSearchParams());
}
