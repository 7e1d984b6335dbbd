// The shapes a typed resource client and an informer share: objects, lists, options, watch events.
import type { ListMeta } from "../generated/meta/v1/types.js";

/** What a client needs to know of an object. Every generated kind is assignable to it. */
export interface KubeObjectLike {
  apiVersion?: string;
  kind?: string;
  metadata?: {
    name?: string;
    generateName?: string;
    namespace?: string;
    resourceVersion?: string;
    uid?: string;
  };
}

/** What a client needs to know of a list. Every generated list kind is assignable to it. */
export interface KubeListLike<T> {
  apiVersion?: string;
  kind?: string;
  metadata?: ListMeta;
  items?: T[];
}

export interface ResourceDescriptor<N extends boolean = boolean> {
  /** "" for the core group. */
  group: string;
  version: string;
  /** The plural resource name, e.g. "configmaps". */
  resource: string;
  kind: string;
  listKind: string;
  namespaced: N;
}

/** client-go's NamespaceAll: list, watch and inform a namespaced resource in every namespace. */
export const allNamespaces = "";

/** The namespace a call addresses: required for a namespaced resource, absent for a cluster-scoped one. */
export type NamespaceOption<N extends boolean> = N extends true ? { namespace: string } : { namespace?: never };

export type DryRun = "All";
export type FieldValidation = "Ignore" | "Warn" | "Strict";
export type PropagationPolicy = "Orphan" | "Background" | "Foreground";
export type PatchType = "json" | "merge" | "strategic" | "apply";

/** The content type each patch type is sent with. */
export const patchContentTypes: Readonly<Record<PatchType, string>> = {
  json: "application/json-patch+json",
  merge: "application/merge-patch+json",
  strategic: "application/strategic-merge-patch+json",
  apply: "application/apply-patch+yaml",
};

export interface RequestOptions {
  signal?: AbortSignal;
}

export interface GetOptions extends RequestOptions {
  resourceVersion?: string;
}

export interface SelectorOptions {
  labelSelector?: string;
  fieldSelector?: string;
}

export interface ListOptions extends RequestOptions, SelectorOptions {
  limit?: number;
  continue?: string;
  resourceVersion?: string;
  resourceVersionMatch?: "Exact" | "NotOlderThan";
  timeoutSeconds?: number;
}

export interface ListAllOptions extends RequestOptions, SelectorOptions {
  /** Page size; default 500, as client-go's pager. */
  limit?: number;
  resourceVersion?: string;
  resourceVersionMatch?: "Exact" | "NotOlderThan";
  /**
   * What to do when a continue token expires (410 Expired) between pages. "error" (default) rejects with the
   * ApiError, as the items already yielded cannot be taken back; "inconsistent" goes on with the token the
   * server offers in its Status, accepting objects changed meanwhile may be missed or seen twice.
   */
  onExpired?: "error" | "inconsistent";
}

export interface SnapshotOptions extends RequestOptions, SelectorOptions {
  /** Page size; default 500. */
  limit?: number;
}

export interface Snapshot<T> {
  items: T[];
  /** The list's resourceVersion: watch from it to follow every later change. */
  resourceVersion: string;
}

export interface WriteOptions extends RequestOptions {
  dryRun?: DryRun;
  fieldManager?: string;
  fieldValidation?: FieldValidation;
}

export interface PatchOptions extends WriteOptions {
  /** Server-side apply only: take ownership of conflicting fields. */
  force?: boolean;
  /** Patch the status subresource instead of the object. */
  subresource?: "status" | "scale";
}

export interface ApplyOptions extends RequestOptions {
  fieldManager: string;
  force?: boolean;
  dryRun?: DryRun;
  fieldValidation?: FieldValidation;
  subresource?: "status" | "scale";
}

export interface Preconditions {
  uid?: string;
  resourceVersion?: string;
}

export interface DeleteOptions extends RequestOptions {
  propagationPolicy?: PropagationPolicy;
  gracePeriodSeconds?: number;
  preconditions?: Preconditions;
  dryRun?: DryRun;
}

export interface DeleteCollectionOptions extends DeleteOptions, SelectorOptions {
  resourceVersion?: string;
  resourceVersionMatch?: "Exact" | "NotOlderThan";
}

export interface WatchOptions extends SelectorOptions {
  /**
   * Where the watch starts: unset or "" sends the current objects as ADDED events first; "0" as well, from
   * any cached state; any other value the changes after it.
   */
  resourceVersion?: string;
  /** Ask for BOOKMARK events (default true): they move the resume point on without any change. */
  allowWatchBookmarks?: boolean;
  /** The server ends each connection after this long; the watch then reconnects. */
  timeoutSeconds?: number;
  /**
   * When the resume point is too old (410 Gone or Expired): "relist" (default) lists every object and yields
   * one RELISTED event with them and the list's resourceVersion before watching from it; "error" rejects
   * with the ApiError.
   */
  onExpired?: "relist" | "error";
  /**
   * Delay before reconnecting after a connection failed or dropped, or the server answered 429 or 5xx (any
   * other failure rejects the iteration); it doubles up to 30s while nothing arrives. Default 1s.
   */
  retryDelayMs?: number;
  /** Ends the iteration (without error). */
  signal?: AbortSignal;
}

export type WatchEventType = "ADDED" | "MODIFIED" | "DELETED" | "BOOKMARK";

export interface WatchObjectEvent<T> {
  type: WatchEventType;
  object: T;
}

/**
 * The watch's resume point had expired, so the resource was listed again: `items` is the whole current state
 * and events after this one are changes from `resourceVersion` on. A consumer keeping state replaces it.
 */
export interface WatchRelistedEvent<T> extends Snapshot<T> {
  type: "RELISTED";
}

export type WatchEvent<T> = WatchObjectEvent<T> | WatchRelistedEvent<T>;
