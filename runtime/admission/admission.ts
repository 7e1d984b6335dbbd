// Admission: plugins that see every write after decoding. Mutating plugins run before the object is
// prepared and validated; validating plugins run after validation, just before storage. A plugin refuses
// a write by throwing a StatusError.

import type { UserInfo } from "../access/user-info.js";
import type { KubeObject } from "../object/kube-object.js";
import type { ServedKind } from "../registry/served-kind.js";

export type Operation = "CREATE" | "UPDATE" | "DELETE";

/** The API request a write comes from; absent for writes of the in-server controllers. */
export interface AdmissionRequestInfo {
  user: UserInfo;
  /** Adds an HTTP Warning header to the response, whether the write succeeds or not. */
  warn(text: string): void;
  /** Records an annotation on the request's audit event. */
  annotate(key: string, value: string): void;
}

export interface AdmissionAttributes {
  operation: Operation;
  /** The kind at the request's version; `object` and `oldObject` are in that version. */
  kind: ServedKind;
  namespace: string | undefined;
  name: string;
  subresource: string | undefined;
  /** The new object (absent for DELETE); mutating plugins may change it in place. */
  object?: KubeObject;
  oldObject?: KubeObject;
  dryRun: boolean;
  request?: AdmissionRequestInfo;
}

export interface AdmissionPlugin {
  name: string;
  mutate?(attributes: AdmissionAttributes): Promise<void> | void;
  validate?(attributes: AdmissionAttributes): Promise<void> | void;
}

export async function admitMutating(plugins: readonly AdmissionPlugin[], a: AdmissionAttributes): Promise<void> {
  for (const plugin of plugins) await plugin.mutate?.(a);
}

export async function admitValidating(plugins: readonly AdmissionPlugin[], a: AdmissionAttributes): Promise<void> {
  for (const plugin of plugins) await plugin.validate?.(a);
}
