// The workloads of issue 22's table, run in order against one server with the one client. Each timed
// part is measured with the server's CPU time (cores used) and, for kapi, its event-loop delay max.
import { BenchClient } from "./client.js";
import { LoadGenerator } from "./load.js";
import type { LoadResult, LoadSpec } from "./load-spec.js";
import { coresUsed, sampleTree, sleep } from "./processes.js";
import type { ServerUnderTest } from "./servers.js";
import { percentile, sortedSamples, summarize } from "./stats.js";
import { nextMessage, startTsWorker } from "./worker-threads.js";

export const workloadNames = [
  "create-first",
  "create-again",
  "get",
  "update",
  "list-3k",
  "watch",
  "create-pod",
  "list-pods",
] as const;
export type WorkloadName = (typeof workloadNames)[number];

export interface WorkloadOptions {
  /** Length of each timed workload. */
  seconds: number;
  only: ReadonlySet<WorkloadName>;
  clientThreads: number;
  watchers: number;
  /** Pods the LIST workloads list (10,000 in the issue). */
  pods: number;
  log: (line: string) => void;
}

export interface WorkloadMeasure {
  cores: number;
  /** The server's CPU time per request of the workload (per LIST, per watched write), ms. */
  cpuMsPerRequest: number;
  /** kapi's nodejs_eventloop_lag_max_seconds over the workload, ms. */
  eventLoopMaxMs?: number;
  failed: number;
  firstFailure?: string;
}

export interface ServerFigures {
  figures: Record<string, number>;
  measures: Record<string, WorkloadMeasure>;
}

const configMapCount = 3_000;
const blob = "x".repeat(900);

function configMap(name: string, extra: Record<string, string> = {}): string {
  return JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name }, data: { blob, ...extra } });
}

/** A Pod of about 2 KiB of JSON, as a typical controller-made Pod is. */
export function podBody(name: string): string {
  const pod = {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      name,
      labels: { app: "bench", tier: "backend", "pod-template-hash": "5d8f7c9b4d" },
      annotations: { "bench/padding": "" },
    },
    spec: {
      containers: [
        {
          name: "app",
          image: "registry.example/bench/app:1.27.3",
          args: ["--port=8080", "--log-level=info"],
          ports: [{ name: "http", containerPort: 8080, protocol: "TCP" }],
          env: [
            { name: "MODE", value: "bench" },
            { name: "POD_NAME", valueFrom: { fieldRef: { fieldPath: "metadata.name" } } },
          ],
          resources: { requests: { cpu: "100m", memory: "128Mi" }, limits: { cpu: "500m", memory: "256Mi" } },
          readinessProbe: { httpGet: { path: "/healthz", port: 8080 }, periodSeconds: 5 },
        },
      ],
      terminationGracePeriodSeconds: 30,
    },
  };
  const unpadded = JSON.stringify(pod).length;
  pod.metadata.annotations["bench/padding"] = "p".repeat(Math.max(0, 2048 - unpadded));
  return JSON.stringify(pod);
}

/** Scrapes kapi's event-loop delay max since the previous scrape (prom-client resets it on each collect). */
async function eventLoopMaxMs(client: BenchClient): Promise<number | undefined> {
  const reply = await client.send("GET", "/metrics");
  const match = /^nodejs_eventloop_lag_max_seconds(?:\{[^}]*\})? (\S+)$/m.exec(reply.body);
  return match === null ? undefined : Number(match[1]) * 1000;
}

async function ensure(client: BenchClient, path: string, body: unknown): Promise<void> {
  const reply = await client.send("POST", path, JSON.stringify(body));
  if (reply.status !== 201 && reply.status !== 409) {
    throw new Error(`POST ${path}: ${reply.status} ${reply.body.slice(0, 300)}`);
  }
}

export async function runWorkloads(server: ServerUnderTest, options: WorkloadOptions): Promise<ServerFigures> {
  const client = new BenchClient({ ...server.client, maxSockets: 64 });
  const load = await LoadGenerator.start({ ...server.client, maxSockets: 256 }, options.clientThreads);
  const figures: Record<string, number> = {};
  const measures: Record<string, WorkloadMeasure> = {};
  const selected = (name: WorkloadName) => options.only.has(name);
  const runStart = sampleTree(server.pids);

  /** Runs `body` as workload `name`, recording the server's cores and event-loop delay over it. */
  async function measure<T extends { requests: number; failed: number; firstFailure?: string }>(
    name: string,
    body: () => Promise<T>,
  ): Promise<T> {
    if (server.eventLoopMetrics) await eventLoopMaxMs(client);
    const before = sampleTree(server.pids);
    const result = await body();
    const after = sampleTree(server.pids);
    const m: WorkloadMeasure = {
      cores: coresUsed(before, after),
      cpuMsPerRequest: ((after.cpuSeconds - before.cpuSeconds) * 1000) / result.requests,
      failed: result.failed,
    };
    if (result.firstFailure !== undefined) m.firstFailure = result.firstFailure;
    if (server.eventLoopMetrics) {
      const max = await eventLoopMaxMs(client);
      if (max !== undefined) m.eventLoopMaxMs = max;
    }
    measures[name] = m;
    options.log(
      `  ${server.name} ${name}: ${m.cores.toFixed(2)} cores, ${m.cpuMsPerRequest.toFixed(2)} CPU ms per request${
        m.eventLoopMaxMs === undefined ? "" : `, event-loop max ${m.eventLoopMaxMs.toFixed(1)} ms`
      }${m.failed > 0 ? `, ${m.failed} failed (${m.firstFailure})` : ""}`,
    );
    return result;
  }

  const run = async (spec: Omit<LoadSpec, "firstIndex" | "firstSlot"> & Partial<LoadSpec>) => {
    const result = await load.run({ firstIndex: 0, firstSlot: 0, ...spec });
    return { ...result, requests: result.ok + result.failed };
  };
  const rate = (r: LoadResult) => (r.ok * 1000) / r.elapsedMs;
  const timed = options.seconds;

  try {
    const cmBody = configMap("c-{i}");
    if (selected("create-first") || selected("list-3k")) {
      const spec = {
        method: "POST",
        path: "/api/v1/namespaces/default/configmaps",
        body: cmBody,
        concurrency: 32,
        count: configMapCount,
      };
      if (selected("create-first")) {
        const r = await measure("create-first", () => run(spec));
        figures["create-first"] = rate(r);
      } else {
        await run(spec);
      }
    }

    for (const ns of ["bench", "bench-again", "bench-watch", "bench-pods"]) {
      await ensure(client, "/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: ns } });
    }
    // Without kube-controller-manager nothing makes a namespace's default ServiceAccount, which Pod admission needs.
    await ensure(client, "/api/v1/namespaces/bench-pods/serviceaccounts", {
      apiVersion: "v1",
      kind: "ServiceAccount",
      metadata: { name: "default" },
    });

    if (selected("create-again")) {
      const r = await measure("create-again", () =>
        run({
          method: "POST",
          path: "/api/v1/namespaces/bench-again/configmaps",
          body: cmBody,
          concurrency: 32,
          count: configMapCount,
        }),
      );
      figures["create-again"] = rate(r);
    }

    if (selected("get")) {
      await ensure(client, "/api/v1/namespaces/bench/configmaps", JSON.parse(configMap("one")));
      const r = await measure("get", () =>
        run({ method: "GET", path: "/api/v1/namespaces/bench/configmaps/one", concurrency: 64, seconds: timed }),
      );
      const s = summarize(r.latencies);
      figures.get = rate(r);
      figures["get-p50"] = s.p50;
      figures["get-p99"] = s.p99;
    }

    if (selected("update")) {
      for (let slot = 0; slot < 32; slot++) {
        await ensure(client, "/api/v1/namespaces/bench/configmaps", JSON.parse(configMap(`u-${slot}`)));
      }
      // One object per client: unconditional updates of 32 objects, not 32 clients contending for one.
      const r = await measure("update", () =>
        run({
          method: "PUT",
          path: "/api/v1/namespaces/bench/configmaps/u-{slot}",
          body: configMap("u-{slot}", { i: "{i}" }),
          concurrency: 32,
          seconds: timed,
        }),
      );
      figures.update = rate(r);
      figures["update-p99"] = summarize(r.latencies).p99;
    }

    if (selected("list-3k")) {
      const r = await measure("list-3k", () =>
        sequentialLatencies(timed / 2, 5, async () => {
          const reply = await client.send("GET", "/api/v1/namespaces/default/configmaps", undefined, false);
          return reply.status === 200;
        }),
      );
      figures["list-3k-p50"] = percentile(sortedSamples(r.latencies), 50);
    }

    if (selected("watch")) {
      const r = await measure("watch", () => watchDelivery(server, client, timed, options.watchers));
      const s = summarize(r.latencies);
      figures["watch-p50"] = s.p50;
      figures["watch-p99"] = s.p99;
    }

    let pods = 0;
    if (selected("create-pod")) {
      const r = await measure("create-pod", () =>
        run({
          method: "POST",
          path: "/api/v1/namespaces/bench-pods/pods",
          body: podBody("p-{i}"),
          concurrency: 32,
          seconds: timed,
        }),
      );
      figures["create-pod"] = rate(r);
      pods = r.ok;
    }

    if (selected("list-pods")) {
      if (pods < options.pods) {
        options.log(`  ${server.name}: creating ${options.pods - pods} more pods for the LIST`);
        const r = await run({
          method: "POST",
          path: "/api/v1/namespaces/bench-pods/pods",
          body: podBody("q-{i}"),
          concurrency: 32,
          count: options.pods - pods,
        });
        if (r.failed > 0) throw new Error(`creating pods for the LIST: ${r.firstFailure}`);
      }
      const full = await measure("list-pods", () =>
        sequentialLatencies(timed / 2, 3, async () => {
          const reply = await client.send("GET", "/api/v1/namespaces/bench-pods/pods", undefined, false);
          return reply.status === 200;
        }),
      );
      figures["list-pods-p50"] = percentile(sortedSamples(full.latencies), 50);
      const paged = await measure("list-pods-paged", () =>
        sequentialLatencies(timed / 2, 3, () => walkPages(client, "/api/v1/namespaces/bench-pods/pods", 500)),
      );
      figures["list-pods-paged-p50"] = percentile(sortedSamples(paged.latencies), 50);
    }

    const runEnd = sampleTree(server.pids);
    figures.rss = runEnd.rssBytes / 1e6;
    figures.cores = coresUsed(runStart, runEnd);
    const loopMaxima = Object.values(measures)
      .map((m) => m.eventLoopMaxMs)
      .filter((v): v is number => v !== undefined);
    if (loopMaxima.length > 0) figures["event-loop-max"] = Math.max(...loopMaxima);
    return { figures, measures };
  } finally {
    await load.stop();
    client.close();
  }
}

/** One request at a time for at least `seconds` and `minRounds` rounds; each round's latency. */
async function sequentialLatencies(
  seconds: number,
  minRounds: number,
  once: () => Promise<boolean>,
): Promise<{ latencies: number[]; requests: number; failed: number; firstFailure?: string }> {
  const latencies: number[] = [];
  let failed = 0;
  const end = performance.now() + seconds * 1000;
  while (latencies.length + failed < minRounds || performance.now() < end) {
    const t0 = performance.now();
    if (await once()) latencies.push(performance.now() - t0);
    else failed++;
    if (failed > minRounds) break;
  }
  const requests = latencies.length + failed;
  return failed > 0
    ? { latencies, requests, failed, firstFailure: "a LIST did not answer 200" }
    : { latencies, requests, failed };
}

/** Every page of a list, `limit` at a time; true when all answered 200. */
async function walkPages(client: BenchClient, path: string, limit: number): Promise<boolean> {
  let token = "";
  do {
    const query = `?limit=${limit}${token === "" ? "" : `&continue=${encodeURIComponent(token)}`}`;
    const reply = await client.send("GET", `${path}${query}`);
    if (reply.status !== 200) return false;
    // The list's metadata comes first: the continue token is read from the head, not by parsing megabytes.
    token = /"continue":"([^"]*)"/.exec(reply.body.slice(0, 2048))?.[1] ?? "";
  } while (token !== "");
  return true;
}

/**
 * `watchers` watches of one namespace held in a worker thread; writes at 50/s for `seconds`; each event's
 * latency from its write's start to its arrival at each watcher.
 */
async function watchDelivery(
  server: ServerUnderTest,
  client: BenchClient,
  seconds: number,
  watchers: number,
): Promise<{ latencies: number[]; requests: number; failed: number; firstFailure?: string }> {
  const path = "/api/v1/namespaces/bench-watch/configmaps";
  const worker = startTsWorker(new URL("./watch-worker.ts", import.meta.url), {
    url: `${server.client.base}${path}?watch=true`,
    token: server.client.token,
    ca: server.client.ca,
    watchers,
  });
  try {
    const ready = await nextMessage<{ failure?: string }>(worker);
    if (ready.failure !== undefined) throw new Error(`watch: ${ready.failure}`);
    await sleep(1000);
    const writes = Math.round(50 * seconds);
    const startedAt: number[] = [];
    const answers: Promise<number>[] = [];
    const t0 = performance.now();
    for (let n = 0; n < writes; n++) {
      const wait = t0 + n * 20 - performance.now();
      if (wait > 0) await sleep(wait);
      startedAt[n] = performance.timeOrigin + performance.now();
      answers.push(client.send("POST", path, configMap(`w-${n}`)).then((r) => r.status));
    }
    const statuses = await Promise.all(answers);
    const failedWrites = statuses.filter((s) => s !== 201).length;
    const expected = (writes - failedWrites) * watchers;
    const latencies: number[] = [];
    let failure: string | undefined;
    const deadline = performance.now() + 10_000;
    while (latencies.length < expected && performance.now() < deadline) {
      await sleep(200);
      worker.postMessage("collect");
      const batch = await nextMessage<{ arrivals: number[]; failure?: string }>(worker);
      failure ??= batch.failure;
      for (let k = 0; k < batch.arrivals.length; k += 2) {
        const n = batch.arrivals[k] as number;
        latencies.push((batch.arrivals[k + 1] as number) - (startedAt[n] as number));
      }
    }
    const missing = expected - latencies.length;
    const failed = failedWrites + Math.max(0, missing);
    if (failed === 0) return { latencies, requests: writes, failed };
    return {
      latencies,
      requests: writes,
      failed,
      firstFailure: `${failedWrites} writes failed, ${missing} events missing${failure === undefined ? "" : `, ${failure}`}`,
    };
  } finally {
    await worker.terminate();
  }
}
