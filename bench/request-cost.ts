// What one small request costs the server: CPU µs per request (the server process's process.cpuUsage() delta
// over the requests it answered) and throughput, for GET one ConfigMap, create ConfigMap, update ConfigMap and
// create a 2 KiB Pod, plus the first 3,000 creates right after start against 3,000 later ones (warm start).
// kapi runs in this process as `npm start` runs it (startServer, SQLite in a temporary directory, HTTPS, the
// admin bearer token); the keep-alive HTTPS client runs in a child process, so the CPU counted is the server's
// alone. A bare node:https server answering a fixed 1 KiB JSON body, measured the same way in the same run, is
// the ceiling.
// Usage: npx tsx bench/request-cost.ts [seconds per workload] [only the workloads whose name has this]
// With KAPI_BENCH_PROFILE=<dir>, the server's CPU profile of each workload alone (not of the start) is written
// there as <workload>.cpuprofile, for Chrome DevTools or any .cpuprofile reader.
import { type ChildProcess, fork } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { Agent, createServer, request } from "node:https";
import { Session } from "node:inspector/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServingCertificates } from "../runtime/http/certificates.js";
import { startServer } from "../runtime/index.js";
import { SqliteStore } from "../runtime/storage/sqlite-store.js";

/** What the client child runs: `count` requests, or as many as fit in `seconds`, `concurrency` at a time. */
interface Workload {
  base: string;
  token: string;
  ca: string;
  concurrency: number;
  count?: number;
  seconds?: number;
  method: string;
  /** `{i}` in the path and body is replaced by the request's index, modulo `wrap` when given. */
  path: string;
  wrap?: number;
  body?: string;
}

interface ClientResult {
  done: number;
  failed: number;
  firstFailure?: string;
  latencies: number[];
  elapsedMs: number;
}

async function runClient(w: Workload): Promise<ClientResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: w.concurrency, ca: w.ca });
  const send = (n: number): Promise<{ status: number; body: string }> =>
    new Promise((resolve, reject) => {
      const i = w.wrap === undefined ? n : n % w.wrap;
      const req = request(
        `${w.base}${w.path.replaceAll("{i}", String(i))}`,
        {
          method: w.method,
          agent,
          headers: {
            Authorization: `Bearer ${w.token}`,
            "Content-Type": "application/json",
            Accept: "application/json",
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
        },
      );
      req.on("error", reject);
      req.end(w.body?.replaceAll("{i}", String(i)));
    });
  const started = performance.now();
  const end = w.seconds === undefined ? Number.POSITIVE_INFINITY : started + w.seconds * 1000;
  const limit = w.count ?? Number.POSITIVE_INFINITY;
  let next = 0;
  let done = 0;
  let failed = 0;
  let firstFailure: string | undefined;
  const latencies: number[] = [];
  await Promise.all(
    Array.from({ length: w.concurrency }, async () => {
      while (next < limit && performance.now() < end) {
        const i = next++;
        const sent = performance.now();
        const { status, body } = await send(i);
        latencies.push(performance.now() - sent);
        if (status >= 300) {
          failed++;
          firstFailure ??= `${status} ${body.slice(0, 200)}`;
        }
        done++;
      }
    }),
  );
  agent.destroy();
  return {
    done,
    failed,
    ...(firstFailure === undefined ? {} : { firstFailure }),
    latencies,
    elapsedMs: performance.now() - started,
  };
}

interface Measured {
  name: string;
  rps: number;
  cpuUsPerRequest: number;
  p50: number;
  p99: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
}

/** Runs `w` in the client child and measures this process's CPU time while it runs. */
function measure(client: ChildProcess, name: string, w: Workload): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const cpuBefore = process.cpuUsage();
    client.once("message", (r: ClientResult) => {
      const cpu = process.cpuUsage(cpuBefore);
      if (r.failed > 0) {
        reject(new Error(`${name}: ${r.failed} of ${r.done} failed, first: ${r.firstFailure}`));
        return;
      }
      const sorted = r.latencies.sort((a, b) => a - b);
      resolve({
        name,
        rps: (r.done * 1000) / r.elapsedMs,
        cpuUsPerRequest: (cpu.user + cpu.system) / r.done,
        p50: percentile(sorted, 0.5),
        p99: percentile(sorted, 0.99),
      });
    });
    client.send(w);
  });
}

async function ceiling(client: ChildProcess, seconds: number, ca: string, cert: string, key: string) {
  const body = JSON.stringify({ kind: "ConfigMap", data: { blob: "x".repeat(990) } }).slice(0, 1024);
  const server = createServer({ cert, key }, (_req, res) => {
    res.writeHead(200, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const result = await measure(client, "ceiling: node:https, 1 KiB JSON", {
    base,
    token: "",
    ca,
    concurrency: 64,
    seconds,
    method: "GET",
    path: "/",
  });
  server.close();
  server.closeAllConnections();
  return result;
}

const configMap = (name: string) =>
  JSON.stringify({ metadata: { name }, data: { key: "value", other: "x".repeat(64) } });

/** A Pod of about 2 KiB as JSON, as a client sends it. */
function pod(name: string): string {
  return JSON.stringify({
    metadata: {
      name,
      labels: { app: "bench", tier: "web", release: "stable" },
      annotations: { note: "y".repeat(200) },
    },
    spec: {
      containers: [
        {
          name: "app",
          image: "registry.example.com/team/app:1.27.3",
          args: ["--port=8080", "--log-level=info", "--config=/etc/app/config.yaml"],
          ports: [{ name: "http", containerPort: 8080 }],
          env: Array.from({ length: 12 }, (_, n) => ({ name: `SETTING_${n}`, value: `value-${n}-${"z".repeat(24)}` })),
          resources: { requests: { cpu: "100m", memory: "128Mi" }, limits: { cpu: "500m", memory: "256Mi" } },
          volumeMounts: [{ name: "config", mountPath: "/etc/app" }],
          readinessProbe: { httpGet: { path: "/healthz", port: 8080 }, periodSeconds: 5 },
        },
      ],
      volumes: [{ name: "config", configMap: { name: "app-config" } }],
    },
  });
}

/** Runs `work` under the inspector's CPU profiler when KAPI_BENCH_PROFILE names a directory. */
async function profiled<T>(name: string, work: () => Promise<T>): Promise<T> {
  const dir = process.env.KAPI_BENCH_PROFILE;
  if (dir === undefined || dir === "") return work();
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
  const result = await work();
  const { profile } = await session.post("Profiler.stop");
  session.disconnect();
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name.replace(/[^A-Za-z0-9]+/g, "-")}.cpuprofile`), JSON.stringify(profile));
  return result;
}

async function main(): Promise<void> {
  const seconds = Number(process.argv[2] ?? 5);
  const only = process.argv[3];
  const certificates = createServingCertificates({ dns: ["localhost"], ips: ["127.0.0.1"] });
  const client = fork(new URL(import.meta.url).pathname, ["--client"], { stdio: "inherit" });
  const dataDir = mkdtempSync(join(tmpdir(), "kapi-request-cost-"));
  const results: Measured[] = [];
  try {
    results.push(await ceiling(client, seconds, certificates.caCert, certificates.cert, certificates.key));
    const kapi = await startServer({ certificates, store: SqliteStore.open(join(dataDir, "kapi.db")) });
    const common = { base: kapi.url, token: kapi.adminToken, ca: certificates.caCert };
    const ns = "/api/v1/namespaces/default";
    // The first creates and the GET and update targets come first: the rest depend on them.
    const workloads: [string, Workload][] = [
      [
        "create ConfigMap, first 3,000 after start (conc 32)",
        {
          ...common,
          concurrency: 32,
          count: 3000,
          method: "POST",
          path: `${ns}/configmaps`,
          body: configMap("first-{i}"),
        },
      ],
      [
        "GET one ConfigMap (conc 64)",
        {
          ...common,
          concurrency: 64,
          seconds,
          method: "GET",
          path: `${ns}/configmaps/first-0`,
        },
      ],
      [
        "create ConfigMap (conc 32)",
        {
          ...common,
          concurrency: 32,
          seconds,
          method: "POST",
          path: `${ns}/configmaps`,
          body: configMap("c-{i}"),
        },
      ],
      [
        "update ConfigMap (conc 32)",
        {
          ...common,
          concurrency: 32,
          seconds,
          method: "PUT",
          path: `${ns}/configmaps/first-{i}`,
          wrap: 3000,
          body: JSON.stringify({ metadata: { name: "first-{i}" }, data: { key: "updated", other: "x".repeat(64) } }),
        },
      ],
      [
        "create Pod, 2 KiB (conc 32)",
        {
          ...common,
          concurrency: 32,
          seconds,
          method: "POST",
          path: `${ns}/pods`,
          body: pod("p-{i}"),
        },
      ],
      [
        "create ConfigMap, 3,000 later (conc 32)",
        {
          ...common,
          concurrency: 32,
          count: 3000,
          method: "POST",
          path: `${ns}/configmaps`,
          body: configMap("later-{i}"),
        },
      ],
    ];
    for (const [name, w] of workloads) {
      if (name.startsWith("create ConfigMap, first") || only === undefined || name.includes(only))
        results.push(await profiled(name, () => measure(client, name, w)));
    }
    await kapi.close();
  } finally {
    client.kill();
    rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(`node ${process.version}; CPU µs per request is the server process's (user + system)`);
  console.log("workload                                             req/s   CPU µs/req   p50 ms   p99 ms");
  for (const r of results) {
    console.log(
      `${r.name.padEnd(52)} ${r.rps.toFixed(0).padStart(6)} ${r.cpuUsPerRequest.toFixed(0).padStart(12)} ${r.p50.toFixed(1).padStart(8)} ${r.p99.toFixed(1).padStart(8)}`,
    );
  }
}

if (process.argv[2] === "--client") {
  process.on("message", (w: Workload) => {
    runClient(w).then(
      (result) => process.send?.(result),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
} else {
  await main();
}
