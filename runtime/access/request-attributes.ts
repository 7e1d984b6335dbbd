// The authorization attributes of an API request (k8s.io/apiserver's GetAuthorizerAttributes): who, the
// verb and resource from the request info, and for list, watch and deletecollection the field and label
// selectors the query carries, so that authorizers may allow a narrowed request.

import { forbidden, type StatusError } from "../errors/status-error.js";
import type { RequestInfo } from "../routing/request-info.js";
import { parseFieldSelector } from "../selection/field-selector.js";
import { parseLabelSelector } from "../selection/parse-label-selector.js";
import type { Attributes, SelectorAttribute } from "./authorizer.js";
import type { UserInfo } from "./user-info.js";

const selectorVerbs = new Set(["list", "watch", "deletecollection"]);

/** A selector's parsed requirements, or its parse error; undefined when there is none. */
export function selectorAttribute<R>(
  raw: string | null,
  parse: (s: string) => { ok: true; selector: { requirements: readonly R[] } } | { ok: false; error: string },
): SelectorAttribute<R> | undefined {
  if (raw === null || raw === "") return undefined;
  const parsed = parse(raw);
  return parsed.ok ? { requirements: parsed.selector.requirements } : { error: parsed.error };
}

export function requestAttributes(user: UserInfo, info: RequestInfo, query: URLSearchParams): Attributes {
  if (!info.isResourceRequest) {
    return {
      user,
      verb: info.verb,
      resourceRequest: false,
      apiGroup: "",
      apiVersion: "",
      resource: "",
      subresource: "",
      namespace: "",
      name: "",
      path: info.path,
    };
  }
  const selectors = selectorVerbs.has(info.verb);
  const fieldSelector = selectors ? selectorAttribute(query.get("fieldSelector"), parseFieldSelector) : undefined;
  const labelSelector = selectors ? selectorAttribute(query.get("labelSelector"), parseLabelSelector) : undefined;
  return {
    user,
    verb: info.verb,
    resourceRequest: true,
    apiGroup: info.group,
    apiVersion: info.version,
    resource: info.resource,
    subresource: info.subresource,
    namespace: info.namespace,
    name: info.name,
    path: info.path,
    ...(fieldSelector && { fieldSelector }),
    ...(labelSelector && { labelSelector }),
  };
}

/** kube's forbidden text: `User "u" cannot get resource "pods" in API group "" in the namespace "ns"`. */
export function forbiddenMessage(attributes: Attributes): string {
  const user = JSON.stringify(attributes.user.name);
  if (!attributes.resourceRequest) {
    return `User ${user} cannot ${attributes.verb} path ${JSON.stringify(attributes.path)}`;
  }
  const resource =
    attributes.subresource === "" ? attributes.resource : `${attributes.resource}/${attributes.subresource}`;
  const what = `User ${user} cannot ${attributes.verb} resource ${JSON.stringify(resource)} in API group ${JSON.stringify(attributes.apiGroup)}`;
  return attributes.namespace === ""
    ? `${what} at the cluster scope`
    : `${what} in the namespace ${JSON.stringify(attributes.namespace)}`;
}

/** kube's 403 for a refused request: the forbidden text and, after a colon, the authorizers' reason. */
export function forbiddenRequest(attributes: Attributes, reason: string): StatusError {
  const message = forbiddenMessage(attributes);
  return forbidden(
    { group: attributes.apiGroup, name: attributes.resource },
    attributes.name,
    reason === "" ? message : `${message}: ${reason}`,
  );
}
