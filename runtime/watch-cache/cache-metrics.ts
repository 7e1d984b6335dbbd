// kube's apiserver_watch_cache_* families for one resource's cache (the cacher's metrics package): events
// received from the store, events dispatched to watches (a progress update counts, as kube's bookmark from
// UpdateResourceVersion does), initializations (each list that fills the cache), the revision it has
// reached, and the time reads wait for it to catch up with a revision. kapi's cache keeps a time window
// of history, not kube's event ring, so it has no capacity families.
import type { MetricRegistry } from "../metrics/metric-registry.js";

export interface CacheMetrics {
  received(): void;
  dispatched(): void;
  initialized(): void;
  resourceVersion(revision: number): void;
  readWait(seconds: number): void;
}

type Labels = "group" | "resource";

function families(metrics: MetricRegistry) {
  const labelNames: Labels[] = ["group", "resource"];
  return {
    received: metrics.counter({
      name: "apiserver_watch_cache_events_received_total",
      help: "Counter of events received in watch cache broken by resource type.",
      labelNames,
      stabilityLevel: "ALPHA",
    }),
    dispatched: metrics.counter({
      name: "apiserver_watch_cache_events_dispatched_total",
      help: "Counter of events dispatched in watch cache broken by resource type.",
      labelNames,
      stabilityLevel: "ALPHA",
    }),
    initializations: metrics.counter({
      name: "apiserver_watch_cache_initializations_total",
      help: "Counter of watch cache initializations broken by resource type.",
      labelNames,
      stabilityLevel: "ALPHA",
    }),
    resourceVersion: metrics.gauge({
      name: "apiserver_watch_cache_resource_version",
      help: "Current resource version of watch cache broken by resource type. This is truncated to the 15 least significant digits.",
      labelNames,
      stabilityLevel: "ALPHA",
    }),
    readWait: metrics.histogram({
      name: "apiserver_watch_cache_read_wait_seconds",
      help: "Histogram of time spent waiting for a watch cache to become fresh.",
      labelNames,
      buckets: [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3],
      stabilityLevel: "ALPHA",
    }),
  };
}

const perRegistry = new WeakMap<MetricRegistry, ReturnType<typeof families>>();

/** The group and resource of a cache's prefix, `/registry/<group>/<resource>/` (group "core" is kube's ""). */
function groupResource(prefix: string): { group: string; resource: string } {
  const [, group = "", resource = ""] = prefix.split("/").slice(1);
  return { group: group === "core" ? "" : group, resource };
}

/** One cache's recorders, its labels bound once. */
export function cacheMetrics(metrics: MetricRegistry, prefix: string): CacheMetrics {
  let made = perRegistry.get(metrics);
  if (made === undefined) {
    made = families(metrics);
    perRegistry.set(metrics, made);
  }
  const labels = groupResource(prefix);
  const received = made.received.labels(labels);
  const dispatched = made.dispatched.labels(labels);
  const initializations = made.initializations.labels(labels);
  const resourceVersion = made.resourceVersion.labels(labels);
  const readWait = made.readWait.labels(labels);
  return {
    received: () => received.inc(),
    dispatched: () => dispatched.inc(),
    initialized: () => initializations.inc(),
    resourceVersion: (revision) => resourceVersion.set(revision % 1e15),
    readWait: (seconds) => readWait.observe(seconds),
  };
}
