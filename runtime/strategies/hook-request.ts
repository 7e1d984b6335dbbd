// What a strategy's request hooks see: the caller, where the request points, and the server's access
// control and resources. Review kinds answer creates with it; subresource hooks (serviceaccounts/token,
// pods/binding) too, and connect hooks (pods/log, pods/exec, nodes/proxy, …) see the HTTP request besides.
import type { UserInfo } from "../access/user-info.js";
import type { AccessControl } from "../authn/access-control.js";
import type { KubeObject } from "../object/kube-object.js";
import type { Strategy } from "../registry/strategy.js";
import type { ResourceApi } from "../resources/resource-api.js";

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

/** A connect subresource's request (pods/log, pods/exec, services/proxy, …): what kube's Connect reads. */
export interface ConnectRequest extends HookRequest {
  /** The HTTP method: connect subresources take several, each its own verb. */
  method: string;
  query: URLSearchParams;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The rest of a proxy path after the subresource, without its leading slash. */
  path?: string;
  body?: Uint8Array;
}

/** What a connect hook answers when it does not fail with a StatusError. */
export interface ConnectAnswer {
  code: number;
  contentType?: string;
  body?: Uint8Array;
}

export type ConnectHook = (request: ConnectRequest) => Promise<ConnectAnswer>;

/** What a strategy adds for kinds whose requests it answers itself. */
export interface RequestHooks {
  /**
   * The kind is a question answered at once and never stored (the review APIs): a create calls this with
   * the decoded object and answers with what it returns (201), or with the StatusError it throws.
   */
  answerCreate?(obj: KubeObject, request: HookRequest): Promise<KubeObject>;
  /** Creates (POST) of subresources the schema marks `hook: <name>`, keyed by that name. */
  createHooks?: Readonly<Record<string, CreateHook>>;
  /** Connect subresources (log, exec, attach, portforward, proxy) the schema marks `hook: <name>`. */
  connectHooks?: Readonly<Record<string, ConnectHook>>;
  /**
   * Hook names of subresources that are views of the whole object (pods/ephemeralcontainers, pods/resize,
   * namespaces/finalize): their get, update and patch take the generic path, and the strategy's
   * prepareForUpdate(obj, old, subresource) keeps what the subresource may not change.
   */
  objectSubresources?: readonly string[];
}

/** A strategy module's export: object hooks, and request hooks where the kind answers requests itself. */
export type KindStrategy = Strategy & RequestHooks;

/** The request hooks of a served kind's strategy (the registry hands strategies out as object hooks only). */
export function requestHooksOf(strategy: Strategy | undefined): RequestHooks | undefined {
  if (strategy === undefined) return undefined;
  const hooks = ["answerCreate", "createHooks", "connectHooks", "objectSubresources"];
  if (!hooks.some((hook) => hook in strategy)) return undefined;
  return strategy as RequestHooks;
}
