// The client SDK's public surface.
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
export {
  type ApplyOptions,
  allNamespaces,
  type DeleteCollectionOptions,
  type DeleteOptions,
  type DryRun,
  type FieldValidation,
  type GetOptions,
  isExpired,
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
  ResourceClient,
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
} from "./resource-client.js";
