// What a strategy's request hooks see: the caller, where the request points, and the server's access
// control and resources. Review kinds answer creates with it; subresource hooks (serviceaccounts/token) too.
import type { UserInfo } from "../authn/user.js";
import type { ResourceApi } from "../resources/resource-api.js";
import type { AccessControl } from "../server/access-control.js";
import type { KubeObject } from "./strategy.js";

export interface HookRequest {
  user: UserInfo;
  /** The namespace and name of the request path, when it has them. */
  namespace?: string;
  name?: string;
  dryRun: boolean;
  /** Adds an HTTP Warning header to the response. */
  warn(text: string): void;
  access: AccessControl;
  resources: ResourceApi;
}

/** A subresource's create: the decoded body in, the answer out (its kind is the subresource's kind). */
export type CreateHook = (body: KubeObject, request: HookRequest) => Promise<KubeObject>;
