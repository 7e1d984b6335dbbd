// The shape of generated/routes.ts: one entry per REST path template kube-apiserver serves for a resource.
import type { Scope, Verb } from "../registry/kind-record.js";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface Route {
  /** Template with `{namespace}`, `{name}` and, last, `{path}` standing for the rest of a proxy path. */
  path: string;
  group: string;
  version: string;
  resource: string;
  subresource?: string;
  /** Scope of the resource; a namespaced resource's all-namespaces list has no `{namespace}` in its path. */
  scope: Scope;
  /** The verb each HTTP method means here; methods left out are not allowed. */
  methods: Partial<Record<HttpMethod, Verb>>;
  /** A GET with `?watch=true` is the watch verb. */
  watch?: true;
}
