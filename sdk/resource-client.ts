// One resource of one group/version, typed by its object and list kinds and by whether it is namespaced:
// for a namespaced resource every call names a namespace, for a cluster-scoped one none may be named, so
// a wrong call fails to typecheck. Watches resume from the last resourceVersion seen and relist on 410.
import type { Status } from "../generated/meta/v1/types.js";
import { type ApiClient, ApiError, failureStatus, type QueryValue } from "./api-client.js";
import { Informer, type InformerOptions, retryBackoff } from "./informer.js";
import {
  type ApplyOptions,
  type DeleteCollectionOptions,
  type DeleteOptions,
  type GetOptions,
  type KubeListLike,
  type KubeObjectLike,
  type ListAllOptions,
  type ListOptions,
  type NamespaceOption,
  type PatchOptions,
  type PatchType,
  patchContentTypes,
  type RequestOptions,
  type ResourceDescriptor,
  type Snapshot,
  type SnapshotOptions,
  type WatchEvent,
  type WatchEventType,
  type WatchObjectEvent,
  type WatchOptions,
  type WriteOptions,
} from "./resource-types.js";

const defaultPageSize = 500;

/** A watch's resume point or a continue token is too old: 410, Expired or Gone. */
export function isExpired(error: unknown): error is ApiError {
  return error instanceof ApiError && error.code === 410;
}

/** What Node calls a connection that failed or dropped. */
const networkErrorCodes = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
]);

/** Worth retrying a watch: a connection that failed or dropped, 429 or a 5xx answer. */
function isTransient(error: unknown): boolean {
  if (error instanceof ApiError) return error.code === 429 || error.code >= 500;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === "string" && networkErrorCodes.has(code);
}

/** The DeleteOptions body of a delete. */
function deleteBody(options: DeleteOptions): Record<string, unknown> {
  return {
    apiVersion: "meta.k8s.io/v1",
    kind: "DeleteOptions",
    ...(options.propagationPolicy === undefined ? {} : { propagationPolicy: options.propagationPolicy }),
    ...(options.gracePeriodSeconds === undefined ? {} : { gracePeriodSeconds: options.gracePeriodSeconds }),
    ...(options.preconditions === undefined ? {} : { preconditions: options.preconditions }),
    ...(options.dryRun === undefined ? {} : { dryRun: [options.dryRun] }),
  };
}

function writeQuery(options: WriteOptions & { force?: boolean }): Record<string, QueryValue> {
  return {
    dryRun: options.dryRun,
    fieldManager: options.fieldManager,
    fieldValidation: options.fieldValidation,
    force: options.force,
  };
}

function signalOf(options: RequestOptions): { signal?: AbortSignal } {
  return options.signal === undefined ? {} : { signal: options.signal };
}

export class ResourceClient<
  T extends KubeObjectLike,
  L extends KubeListLike<T> = KubeListLike<T>,
  N extends boolean = boolean,
> {
  constructor(
    readonly api: ApiClient,
    readonly descriptor: ResourceDescriptor<N>,
  ) {}

  /** "v1" or "<group>/<version>". */
  get apiVersion(): string {
    const { group, version } = this.descriptor;
    return group === "" ? version : `${group}/${version}`;
  }

  async get(name: string, options: GetOptions & NamespaceOption<N>): Promise<T> {
    return this.api.request<T>({
      path: this.path(options, name),
      query: { resourceVersion: options.resourceVersion },
      ...signalOf(options),
    });
  }

  /** One page of the list. */
  async list(options: ListOptions & NamespaceOption<N>): Promise<L> {
    return this.api.request<L>({
      path: this.path(options),
      query: {
        labelSelector: options.labelSelector,
        fieldSelector: options.fieldSelector,
        limit: options.limit,
        continue: options.continue,
        resourceVersion: options.resourceVersion,
        resourceVersionMatch: options.resourceVersionMatch,
        timeoutSeconds: options.timeoutSeconds,
      },
      ...signalOf(options),
    });
  }

  /** Every item, page after page of `limit` items. */
  async *listAll(options: ListAllOptions & NamespaceOption<N>): AsyncGenerator<T> {
    for await (const page of this.pages(options)) yield* page.items ?? [];
  }

  async create(obj: T, options: WriteOptions & NamespaceOption<N>): Promise<T> {
    return this.api.request<T>({
      method: "POST",
      path: this.path(options),
      query: writeQuery(options),
      body: this.withTypeMeta(obj),
      ...signalOf(options),
    });
  }

  /** Replaces the object named by obj.metadata.name. */
  async update(obj: T, options: WriteOptions & NamespaceOption<N>): Promise<T> {
    return this.replace(obj, options, undefined);
  }

  /** Replaces the status subresource of the object named by obj.metadata.name. */
  async updateStatus(obj: T, options: WriteOptions & NamespaceOption<N>): Promise<T> {
    return this.replace(obj, options, "status");
  }

  /**
   * Patches the object: `body` is a JSON patch (an array of operations) for "json", a partial object for
   * "merge", "strategic" and "apply" (the apply configuration; `fieldManager` required).
   */
  async patch(name: string, body: unknown, type: PatchType, options: PatchOptions & NamespaceOption<N>): Promise<T> {
    return this.api.request<T>({
      method: "PATCH",
      path: this.path(options, name, options.subresource),
      query: writeQuery(options),
      body,
      contentType: patchContentTypes[type],
      ...signalOf(options),
    });
  }

  /** Server-side apply of `obj` (its apiVersion and kind are filled in when missing). */
  async apply(obj: T, options: ApplyOptions & NamespaceOption<N>): Promise<T> {
    return this.patch(this.nameOf(obj), this.withTypeMeta(obj), "apply", options);
  }

  /** Resolves with what the server answers: the deleted object, or a Status for some resources. */
  async delete(name: string, options: DeleteOptions & NamespaceOption<N>): Promise<T | Status> {
    return this.api.request<T | Status>({
      method: "DELETE",
      path: this.path(options, name),
      body: deleteBody(options),
      ...signalOf(options),
    });
  }

  /** Deletes every object the selectors match; resolves with the deleted objects. */
  async deleteCollection(options: DeleteCollectionOptions & NamespaceOption<N>): Promise<L> {
    return this.api.request<L>({
      method: "DELETE",
      path: this.path(options),
      query: {
        labelSelector: options.labelSelector,
        fieldSelector: options.fieldSelector,
        resourceVersion: options.resourceVersion,
        resourceVersionMatch: options.resourceVersionMatch,
      },
      body: deleteBody(options),
      ...signalOf(options),
    });
  }

  /**
   * Changes as they happen, until `signal` aborts. The watch outlives connections: each new one starts from
   * the last resourceVersion seen (BOOKMARKs included); a watch started without one that drops before its
   * first event starts over with the current objects. See WatchOptions for retries and expired resume points.
   */
  async *watch(options: WatchOptions & NamespaceOption<N>): AsyncGenerator<WatchEvent<T>> {
    const { signal } = options;
    const aborted = () => signal?.aborted === true;
    const backoff = retryBackoff(options.retryDelayMs ?? 1000);
    const { resourceVersion: start, ...selection } = options;
    let resourceVersion = start;
    let relist = false;
    while (!aborted()) {
      try {
        if (relist) {
          const snapshot = await this.snapshot(selection as SnapshotOptions & NamespaceOption<N>);
          resourceVersion = snapshot.resourceVersion;
          relist = false;
          yield { type: "RELISTED", ...snapshot };
        }
        let delivered = false;
        for await (const event of this.connection(options, resourceVersion)) {
          resourceVersion = event.object.metadata?.resourceVersion ?? resourceVersion;
          delivered = true;
          backoff.reset();
          yield event;
        }
        // A server ending watches at once is not asked again at once.
        if (!delivered) await backoff.wait(signal);
      } catch (error) {
        if (aborted()) return;
        if (isExpired(error) && options.onExpired !== "error") relist = true;
        else if (isExpired(error) || !isTransient(error)) throw error;
        else await backoff.wait(signal);
      }
    }
  }

  /** One watch request's events; an ERROR event rejects with its Status. */
  private async *connection(
    options: WatchOptions & NamespaceOption<N>,
    resourceVersion: string | undefined,
  ): AsyncGenerator<WatchObjectEvent<T>> {
    const lines = await this.api.stream({
      path: this.path(options),
      query: {
        watch: true,
        resourceVersion,
        allowWatchBookmarks: options.allowWatchBookmarks ?? true,
        labelSelector: options.labelSelector,
        fieldSelector: options.fieldSelector,
        timeoutSeconds: options.timeoutSeconds,
      },
      ...signalOf(options),
    });
    for await (const line of lines) {
      const event = JSON.parse(line) as { type: WatchEventType | "ERROR"; object: unknown };
      if (event.type === "ERROR") {
        throw new ApiError(failureStatus((event.object as Status | undefined)?.code ?? 500, event.object));
      }
      yield { type: event.type, object: event.object as T };
    }
  }

  /**
   * The whole current state, consistent at one resourceVersion (the first page's), read in pages of `limit`:
   * what a watch starts from and what an expired watch relists.
   */
  async snapshot(options: SnapshotOptions & NamespaceOption<N>): Promise<Snapshot<T>> {
    const items: T[] = [];
    let resourceVersion = "";
    for await (const page of this.pages({ ...options, onExpired: "error" } as ListAllOptions & NamespaceOption<N>)) {
      if (resourceVersion === "") resourceVersion = page.metadata?.resourceVersion ?? "";
      items.push(...(page.items ?? []));
    }
    return { items, resourceVersion };
  }

  /** An informer (list, watch, local cache) over this resource; call start() on it. */
  informer(options: InformerOptions & NamespaceOption<N>): Informer<T> {
    return new Informer<T>(this as ResourceClient<T, KubeListLike<T>, boolean>, options);
  }

  /** The pages of a list; the first one at `resourceVersion`, the others by their continue token. */
  private async *pages(options: ListAllOptions & NamespaceOption<N>): AsyncGenerator<L> {
    const limit = options.limit ?? defaultPageSize;
    let token: string | undefined;
    do {
      let page: L;
      try {
        page = await this.list({
          ...options,
          limit,
          ...(token === undefined
            ? {}
            : { continue: token, resourceVersion: undefined, resourceVersionMatch: undefined }),
        } as ListOptions & NamespaceOption<N>);
      } catch (error) {
        const offered = isExpired(error) ? error.status.metadata?.continue : undefined;
        if (options.onExpired !== "inconsistent" || token === undefined || offered === undefined) throw error;
        token = offered;
        continue;
      }
      yield page;
      token = page.metadata?.continue || undefined;
    } while (token !== undefined);
  }

  private async replace(
    obj: T,
    options: WriteOptions & NamespaceOption<N>,
    subresource: string | undefined,
  ): Promise<T> {
    return this.api.request<T>({
      method: "PUT",
      path: this.path(options, this.nameOf(obj), subresource),
      query: writeQuery(options),
      body: this.withTypeMeta(obj),
      ...signalOf(options),
    });
  }

  private nameOf(obj: T): string {
    const name = obj.metadata?.name;
    if (name === undefined || name === "") throw new TypeError(`a ${this.descriptor.kind} needs metadata.name here`);
    return name;
  }

  private withTypeMeta(obj: T): T {
    return { ...obj, apiVersion: obj.apiVersion ?? this.apiVersion, kind: obj.kind ?? this.descriptor.kind };
  }

  /** The collection's path, or an object's (and its subresource's) when `name` is given. */
  private path(options: { namespace?: string }, name?: string, subresource?: string): string {
    const { group, version, resource, namespaced } = this.descriptor;
    let path = group === "" ? `/api/${version}` : `/apis/${group}/${version}`;
    const namespace = namespaced ? (options.namespace ?? "") : "";
    if (namespace !== "") {
      path += `/namespaces/${encodeURIComponent(namespace)}`;
    } else if (namespaced && name !== undefined) {
      throw new TypeError(`a namespace is required to address a ${this.descriptor.kind} by name`);
    }
    path += `/${resource}`;
    if (name !== undefined) path += `/${encodeURIComponent(name)}`;
    if (subresource !== undefined) path += `/${subresource}`;
    return path;
  }
}
