// Admission: plugins that see every write after decoding. Mutating plugins run before the object is
// prepared and validated; validating plugins run after validation, just before storage. A plugin refuses
// a write by throwing a StatusError.

import type { UserInfo } from "../access/user-info.js";
import type { KubeObject } from "../object/kube-object.js";
import type { GroupVersionKind } from "../registry/kind-record.js";
import type { ServedKind } from "../registry/served-kind.js";

export type Operation = "CREATE" | "UPDATE" | "DELETE" | "CONNECT";

/** The API request a write comes from; absent for writes of the in-server controllers. */
export interface AdmissionRequestInfo {
  user: UserInfo;
  /** Adds an HTTP Warning header to the response, whether the write succeeds or not. */
  warn(text: string): void;
  /** Records an annotation on the request's audit event. */
  annotate(key: string, value: string): void;
  /**
   * The fields of the request's options as the client sent them (`dryRun`, `fieldManager`, `fieldValidation`;
   * a delete's DeleteOptions fields), without kind: admission names the options kind its operation calls for
   * (CreateOptions, UpdateOptions, DeleteOptions), as kube converts a patch's options.
   */
  options?: Record<string, unknown>;
}

/**
 * kube's reinvocation context. The mutating chain runs a second time, once, when a plugin asks for it
 * (`requested`); on that run `isReinvoke` is true. `state` keeps what a plugin remembers between the runs.
 */
export interface Reinvocation {
  isReinvoke: boolean;
  requested: boolean;
  readonly state: Map<string, unknown>;
}

export interface AdmissionAttributes {
  operation: Operation;
  /** The kind at the request's version; `object` and `oldObject` are in that version. */
  kind: ServedKind;
  namespace: string | undefined;
  name: string;
  subresource: string | undefined;
  /**
   * kube's GetKind() where a subresource takes another kind than its resource's (pods/eviction: policy/v1
   * Eviction; pods/exec: v1 PodExecOptions); `kind` then still names the resource.
   */
  subresourceKind?: GroupVersionKind;
  /** The new object (absent for DELETE); mutating plugins may change it in place or replace it. */
  object?: KubeObject;
  oldObject?: KubeObject;
  dryRun: boolean;
  request?: AdmissionRequestInfo;
  /** Set by admitMutating for its runs. */
  reinvocation?: Reinvocation;
}

/** Whether the request is about a Namespace itself (namespace selectors then read its own labels). */
export function isNamespaceRequest(a: Pick<AdmissionAttributes, "kind">): boolean {
  return a.kind.group === "" && a.kind.resource.plural === "namespaces";
}

/** The kind of the request's object: the subresource's own kind, else the resource's. */
export function objectKindOf(a: Pick<AdmissionAttributes, "kind" | "subresourceKind">): GroupVersionKind {
  return a.subresourceKind ?? { group: a.kind.group, version: a.kind.version, kind: a.kind.kind };
}

const optionsKinds: Record<Operation, string | undefined> = {
  CREATE: "CreateOptions",
  UPDATE: "UpdateOptions",
  DELETE: "DeleteOptions",
  // A connect's options are its subresource's own kind (PodExecOptions, …), which no write here has.
  CONNECT: undefined,
};

/** The request's options as kube hands them to admission: the operation's options kind with the fields sent. */
export function admissionOptions(
  a: Pick<AdmissionAttributes, "operation" | "request">,
): Record<string, unknown> | null {
  const kind = optionsKinds[a.operation];
  if (kind === undefined) return null;
  return { kind, apiVersion: "meta.k8s.io/v1", ...a.request?.options };
}

export interface AdmissionPlugin {
  name: string;
  mutate?(attributes: AdmissionAttributes): Promise<void> | void;
  validate?(attributes: AdmissionAttributes): Promise<void> | void;
}

/**
 * Every plugin's mutating step in order; again, once, when one of them asks for reinvocation (kube's
 * reinvoker: in-tree plugins run again, webhooks only where their reinvocationPolicy says so).
 */
export async function admitMutating(plugins: readonly AdmissionPlugin[], a: AdmissionAttributes): Promise<void> {
  const reinvocation: Reinvocation = { isReinvoke: false, requested: false, state: new Map() };
  a.reinvocation = reinvocation;
  await mutateAll(plugins, a);
  if (!reinvocation.requested) return;
  reinvocation.isReinvoke = true;
  reinvocation.requested = false;
  await mutateAll(plugins, a);
}

// Steps that answer synchronously are not awaited: a write passes some twenty plugins each way.
async function mutateAll(plugins: readonly AdmissionPlugin[], a: AdmissionAttributes): Promise<void> {
  for (const plugin of plugins) {
    const pending = plugin.mutate?.(a);
    if (pending !== undefined) await pending;
  }
}

export async function admitValidating(plugins: readonly AdmissionPlugin[], a: AdmissionAttributes): Promise<void> {
  for (const plugin of plugins) {
    const pending = plugin.validate?.(a);
    if (pending !== undefined) await pending;
  }
}
