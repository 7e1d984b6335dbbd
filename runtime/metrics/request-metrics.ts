// kube-apiserver's request families (apiserver_request_*, apiserver_response_sizes, in-flight and long-running
// gauges, watch events), with kube's label values: the canonical verb of the HTTP method (LIST for a
// collection GET, WATCH, APPLY for a server-side apply patch, CONNECT for the connect subresources), kube's
// scope and dry-run values, and `component` "apiserver" for resource requests, "" for the instrumented
// non-resource paths (health checks and /openapi/v3), which label `subresource` with their path.
import type { Counter, Gauge, Histogram } from "prom-client";
import type { MetricRegistry } from "./metric-registry.js";

/** What a request's labels are made of: its RequestInfo, as the requestInfo stage builds it. */
export interface RequestLabelSource {
  isResourceRequest: boolean;
  verb: string;
  group: string;
  version: string;
  resource: string;
  subresource: string;
  namespace: string;
}

export interface RequestLabels {
  verb: string;
  dry_run: string;
  group: string;
  version: string;
  resource: string;
  subresource: string;
  scope: string;
  component: string;
}

const requestLatencyBuckets = [
  0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60,
];
const sliLatencyBuckets = requestLatencyBuckets.slice(2);
// 1000 × 10^i for i < 7.
const responseSizeBuckets = [1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9];
// 1024 × 2^i for i < 8: 1K to 128K.
const watchEventSizeBuckets = [1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072];

const validVerbs = new Set([
  "APPLY",
  "CONNECT",
  "CREATE",
  "DELETE",
  "DELETECOLLECTION",
  "GET",
  "LIST",
  "PATCH",
  "POST",
  "PROXY",
  "PUT",
  "UPDATE",
  "WATCH",
  "WATCHLIST",
]);
const connectSubresources = new Set(["log", "exec", "portforward", "attach", "proxy"]);
const dryRunAll = "All";

/**
 * kube's metrics scope, as its installer gives each route: `resource` for a named object or a create,
 * `namespace`, `cluster`, or "" (non-resource). `pathName` is the name in the path: a list narrowed to one name
 * by field selector keeps its collection's scope.
 */
export function metricsScope(info: RequestLabelSource, pathName: string): string {
  if (pathName !== "" || info.verb === "create") return "resource";
  if (info.namespace !== "") return "namespace";
  return info.isResourceRequest ? "cluster" : "";
}

function isWatchQuery(query: URLSearchParams): boolean {
  const value = query.get("watch");
  if (value === null) return false;
  const lower = value.toLowerCase();
  return lower !== "0" && lower !== "false";
}

/** The verb label: kube's CanonicalVerb and CleanVerb of the HTTP method; an unknown method is "other". */
export function reportedVerb(
  method: string,
  info: RequestLabelSource,
  scope: string,
  query: URLSearchParams,
  contentType: string | undefined,
): string {
  const upper = method.toUpperCase();
  if (info.verb === "watch" || info.verb === "watchlist") return "WATCH";
  let verb = upper === "GET" || upper === "HEAD" ? (scope !== "resource" && scope !== "" ? "LIST" : "GET") : upper;
  if ((upper === "GET" || upper === "LIST") && isWatchQuery(query)) verb = "WATCH";
  if (verb === "PATCH" && contentType === "application/apply-patch+yaml") verb = "APPLY";
  if (info.isResourceRequest && connectSubresources.has(info.subresource)) verb = "CONNECT";
  return validVerbs.has(verb) ? verb : "other";
}

/** The dry_run label: "" without the parameter, "All" for a valid one, "invalid" otherwise. */
export function dryRunLabel(query: URLSearchParams): string {
  const values = query.getAll("dryRun");
  if (values.length === 0) return "";
  return values.every((v) => v === dryRunAll) ? dryRunAll : "invalid";
}

export class RequestMetrics {
  readonly requests: Counter<keyof RequestLabels | "code">;
  readonly latency: Histogram<keyof RequestLabels>;
  readonly sliLatency: Histogram<Exclude<keyof RequestLabels, "dry_run">>;
  readonly sloLatency: Histogram<Exclude<keyof RequestLabels, "dry_run">>;
  readonly responseSizes: Histogram<Exclude<keyof RequestLabels, "dry_run">>;
  readonly longRunning: Gauge<Exclude<keyof RequestLabels, "dry_run">>;
  readonly terminations: Counter<Exclude<keyof RequestLabels, "dry_run"> | "code">;
  readonly deprecatedApis: Gauge<"group" | "version" | "resource" | "subresource" | "removed_release">;
  readonly watchEvents: Counter<"group" | "version" | "resource">;
  readonly watchEventSizes: Histogram<"group" | "version" | "resource">;
  /** The most requests executing at once since the last scrape, per kind (kube keeps the last second's). */
  readonly #inFlightPeak = { readOnly: 0, mutating: 0 };
  readonly #inFlight = { readOnly: 0, mutating: 0 };

  constructor(registry: MetricRegistry) {
    const labels = ["verb", "dry_run", "group", "version", "resource", "subresource", "scope", "component"] as const;
    const withoutDryRun = ["verb", "group", "version", "resource", "subresource", "scope", "component"] as const;
    this.requests = registry.counter({
      name: "apiserver_request_total",
      help: "Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.",
      labelNames: [...labels, "code"],
      stabilityLevel: "STABLE",
    });
    this.latency = registry.histogram({
      name: "apiserver_request_duration_seconds",
      help: "Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.",
      labelNames: labels,
      buckets: requestLatencyBuckets,
      stabilityLevel: "STABLE",
    });
    const sliHelp =
      "Response latency distribution (not counting webhook duration and priority & fairness queue wait times) in seconds for each verb, group, version, resource, subresource, scope and component.";
    this.sloLatency = registry.histogram({
      name: "apiserver_request_slo_duration_seconds",
      help: sliHelp,
      labelNames: withoutDryRun,
      buckets: sliLatencyBuckets,
      stabilityLevel: "ALPHA",
      deprecatedVersion: "1.27.0",
    });
    this.sliLatency = registry.histogram({
      name: "apiserver_request_sli_duration_seconds",
      help: sliHelp,
      labelNames: withoutDryRun,
      buckets: sliLatencyBuckets,
      stabilityLevel: "ALPHA",
    });
    this.responseSizes = registry.histogram({
      name: "apiserver_response_sizes",
      help: "Response size distribution in bytes for each group, version, verb, resource, subresource, scope and component.",
      labelNames: withoutDryRun,
      buckets: responseSizeBuckets,
      stabilityLevel: "STABLE",
    });
    this.longRunning = registry.gauge({
      name: "apiserver_longrunning_requests",
      help: "Gauge of all active long-running apiserver requests broken out by verb, group, version, resource, scope and component. Not all requests are tracked this way.",
      labelNames: withoutDryRun,
      stabilityLevel: "STABLE",
    });
    this.terminations = registry.counter({
      name: "apiserver_request_terminations_total",
      help: "Number of requests which apiserver terminated in self-defense.",
      labelNames: [...withoutDryRun, "code"],
      stabilityLevel: "ALPHA",
    });
    this.deprecatedApis = registry.gauge({
      name: "apiserver_requested_deprecated_apis",
      help: "Gauge of deprecated APIs that have been requested, broken out by API group, version, resource, subresource, and removed_release.",
      labelNames: ["group", "version", "resource", "subresource", "removed_release"],
      stabilityLevel: "STABLE",
    });
    this.watchEvents = registry.counter({
      name: "apiserver_watch_events_total",
      help: "Number of events sent in watch clients",
      labelNames: ["group", "version", "resource"],
      stabilityLevel: "ALPHA",
    });
    this.watchEventSizes = registry.histogram({
      name: "apiserver_watch_events_sizes",
      help: "Watch event size distribution in bytes",
      labelNames: ["group", "version", "resource"],
      buckets: watchEventSizeBuckets,
      stabilityLevel: "ALPHA",
    });
    const inFlightPeak = this.#inFlightPeak;
    const inFlight = this.#inFlight;
    registry.gauge({
      name: "apiserver_current_inflight_requests",
      help: "Maximal number of currently used inflight request limit of this apiserver per request kind in last second.",
      labelNames: ["request_kind"],
      stabilityLevel: "STABLE",
      collect() {
        this.set({ request_kind: "mutating" }, inFlightPeak.mutating);
        this.set({ request_kind: "readOnly" }, inFlightPeak.readOnly);
        inFlightPeak.mutating = inFlight.mutating;
        inFlightPeak.readOnly = inFlight.readOnly;
      },
    });
  }

  /** A request that is not long-running begins executing; call the returned function when it ends. */
  executing(mutating: boolean): () => void {
    const kind = mutating ? "mutating" : "readOnly";
    this.#inFlight[kind]++;
    if (this.#inFlight[kind] > this.#inFlightPeak[kind]) this.#inFlightPeak[kind] = this.#inFlight[kind];
    return () => {
      this.#inFlight[kind]--;
    };
  }

  /** One answered request, as kube's MonitorRequest records it. */
  observe(labels: RequestLabels, code: number, seconds: number, responseBytes: number | undefined): void {
    this.requests.inc({ ...labels, code: `${code}` });
    this.latency.observe(labels, seconds);
    const { dry_run, ...rest } = labels;
    if (dry_run === "") {
      this.sliLatency.observe(rest, seconds);
      this.sloLatency.observe(rest, seconds);
    }
    if (responseBytes !== undefined && (labels.verb === "GET" || labels.verb === "LIST"))
      this.responseSizes.observe(rest, responseBytes);
  }

  /** A request the server refused in self-defense (429 from the in-flight limit, 504 from the timeout). */
  terminated(labels: RequestLabels, code: number): void {
    const { dry_run: _, ...rest } = labels;
    this.terminations.inc({ ...rest, code: `${code}` });
  }

  /** A request to a deprecated group/version/resource. */
  deprecated(labels: RequestLabels, removedRelease: string): void {
    this.deprecatedApis.set(
      {
        group: labels.group,
        version: labels.version,
        resource: labels.resource,
        subresource: labels.subresource,
        removed_release: removedRelease,
      },
      1,
    );
  }

  /** One watch event sent to a client. */
  watchEvent(group: string, version: string, resource: string, bytes: number): void {
    const labels = { group, version, resource };
    this.watchEvents.inc(labels);
    this.watchEventSizes.observe(labels, bytes);
  }
}

const perRegistry = new WeakMap<MetricRegistry, RequestMetrics>();

/** The registry's request families, created on first use. */
export function requestMetrics(registry: MetricRegistry): RequestMetrics {
  let metrics = perRegistry.get(registry);
  if (metrics === undefined) {
    metrics = new RequestMetrics(registry);
    perRegistry.set(registry, metrics);
  }
  return metrics;
}
