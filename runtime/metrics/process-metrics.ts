// The process families kube's Go client exports (process_*), from prom-client's default collectors; the Go
// runtime's go_* have no Node equivalent, prom-client's nodejs_* stand in. The collectors describe the
// process, not a server, and some keep observers running (GC, event loop delay): they are made once per
// process, on a registry of their own, and each server's registry exports the same metric objects.
// Also kubernetes_build_info, labelled with the release kapi behaves as.
import { collectDefaultMetrics, Registry } from "prom-client";
import type { MetricRegistry } from "./metric-registry.js";

type Collector = Parameters<Registry["registerMetric"]>[0];

let processCollectors: readonly Collector[] | undefined;

/** The default collectors, made on the first call and shared by every later one. */
function sharedProcessCollectors(): readonly Collector[] {
  if (processCollectors === undefined) {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    // prom-client types the registry's list as plain objects; they are the metrics it registered.
    processCollectors = registry.getMetricsAsArray() as unknown as Collector[];
  }
  return processCollectors;
}

export interface BuildInfo {
  major: string;
  minor: string;
  gitVersion: string;
  gitCommit: string;
  gitTreeState: string;
  buildDate: string;
  goVersion: string;
  compiler: string;
  platform: string;
}

export function registerProcessMetrics(metrics: MetricRegistry, build: BuildInfo): void {
  for (const collector of sharedProcessCollectors()) metrics.registry.registerMetric(collector);
  metrics
    .gauge({
      name: "kubernetes_build_info",
      help: "A metric with a constant '1' value labeled by major, minor, git version, git commit, git tree state, build date, Go version, and compiler from which Kubernetes was built, and platform on which it is running.",
      labelNames: [
        "build_date",
        "compiler",
        "git_commit",
        "git_tree_state",
        "git_version",
        "go_version",
        "major",
        "minor",
        "platform",
      ],
      stabilityLevel: "BETA",
    })
    .set(
      {
        build_date: build.buildDate,
        compiler: build.compiler,
        git_commit: build.gitCommit,
        git_tree_state: build.gitTreeState,
        git_version: build.gitVersion,
        go_version: build.goVersion,
        major: build.major,
        minor: build.minor,
        platform: build.platform,
      },
      1,
    );
}
