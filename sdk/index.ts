// The entry of the @kapi/client package: the client runtime's public surface, the typed clients of every
// group/version, the types of their kinds, and ObjectMeta and ListMeta by name (what `kapi sdk --crd` output
// imports).

export * from "../generated/client/index.js";
export type * from "../generated/client/kinds.js";
export type { ListMeta, ObjectMeta } from "../generated/meta/v1/types.js";

export {
  ApiClient,
  type ApiClientOptions,
  ApiError,
  type ApiRequest,
  defaultKubeconfigPath,
  type FromKubeconfigOptions,
  type QueryValue,
} from "./api-client.js";
export type { ExecPluginOptions } from "./exec-credential.js";
export { ExecPluginError } from "./exec-credential.js";
export {
  Informer,
  type InformerHandlers,
  type InformerOptions,
  objectKey,
} from "./informer.js";
export {
  type ClientConfig,
  type ClusterConfig,
  type ExecConfig,
  KubeconfigError,
  loadKubeconfig,
  type UserConfig,
} from "./kubeconfig.js";
export { isExpired, ResourceClient } from "./resource-client.js";
export {
  type ApplyOptions,
  allNamespaces,
  type DeleteCollectionOptions,
  type DeleteOptions,
  type DryRun,
  type FieldValidation,
  type GetOptions,
  type KubeListLike,
  type KubeObjectLike,
  type ListAllOptions,
  type ListOptions,
  type NamespaceOption,
  type PatchOptions,
  type PatchType,
  type Preconditions,
  type PropagationPolicy,
  patchContentTypes,
  type RequestOptions,
  type ResourceDescriptor,
  type SelectorOptions,
  type Snapshot,
  type SnapshotOptions,
  type WatchEvent,
  type WatchEventType,
  type WatchObjectEvent,
  type WatchOptions,
  type WatchRelistedEvent,
  type WriteOptions,
} from "./resource-types.js";
