// The entry of the @kapi/client package: the client runtime, the typed clients of every group/version, the
// types of their kinds, and ObjectMeta and ListMeta by name (what `kapi sdk --crd` output imports).

export * from "../generated/client/index.js";
export type * from "../generated/client/kinds.js";
export type { ListMeta, ObjectMeta } from "../generated/meta/v1/types.js";
export * from "../runtime/client/index.js";
