// What API Priority and Fairness and auditing cost a request, and what the always-on metrics cost: kapi in
// this process over HTTPS, the same keep-alive client for every configuration, in one run:
//   (a) --enable-priority-and-fairness=false, no audit (the base);
//   (b) APF on (kube's default);
//   (c) audit at Metadata for every request through kube's log backend (blocking mode) to a temp file;
//   (d) APF and audit.
// For each: p50 and mean latency of GET one ConfigMap and of a ConfigMap create, one request at a time, and
// their throughput with 16 clients. Metrics have no switch in kube, so their cost is measured apart: the
// metrics stage's work for one GET (labels, in-flight gauge, counter, histograms), looped, as a share of
// (a)'s mean GET latency. Each configuration runs in 3 rounds (after a warm-up one), medians reported. Ratios are
// to (a), and to a bare node:https server answering a fixed 1 KiB body (the ceiling); the reference kube-apiserver
// (../shared/reference, start.sh) is measured too when it is up. CPU µs per request is this process's CPU time
// (server and client) over the one-at-a-time requests: steadier than latency on a shared machine, and as the
// client is the same for every configuration, its difference to (a) is what the server's extra work costs.
//   npx tsx bench/observability-overhead.ts [seconds per throughput] [sequential requests]
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { Agent, createServer, request } from "node:https";
import type { AddressInfo } from "node:net";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { parseAuditFlags } from "../runtime/audit/audit-flags.js";
import { createServingCertificates } from "../runtime/http/certificates.js";
import { startServer } from "../runtime/index.js";
import { MetricRegistry } from "../runtime/metrics/metric-registry.js";
import { parseRequestInfo } from "../runtime/routing/request-info.js";
import type { RequestContext } from "../runtime/server/context.js";
import { metrics as metricsStage } from "../runtime/server/stages/metrics-stage.js";

const seconds = Number(process.argv[2] ?? 3);
const sequential = Number(process.argv[3] ?? 1500);
const concurrency = 16;
const certificates = createServingCertificates({ dns: ["localhost"], ips: ["127.0.0.1"] });

type Send = (method: string, path: string, body?: string) => Promise<number>;

function client(base: string, token: string): Send {
  const agent = new Agent({ keepAlive: true, maxSockets: 64, ca: certificates.caCert, rejectUnauthorized: false });
  const headers = { Authorization: `Bearer ${token}`, "Content-Type": "application/json", Accept: "application/json" };
  return (method, path, body) =>
    new Promise((resolve, reject) => {
      const req = request(`${base}${path}`, { method, agent, headers }, (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      });
      req.on("error", reject);
      req.end(body);
    });
}

interface Figures {
  p50: number;
  mean: number;
  rps: number;
  /** CPU time of this process (server and client) per request, µs, over the one-at-a-time requests. */
  cpu: number;
}

/** One request at a time (p50 and mean, ms), then `concurrency` clients for `seconds` (req/s). */
async function measure(send: (i: number) => Promise<number>, expected: number): Promise<Figures> {
  let i = 0;
  const check = async () => {
    const status = await send(i++);
    if (status !== expected) throw new Error(`answered ${status}, expected ${expected}`);
  };
  for (let w = 0; w < 200; w++) await check();
  const times: number[] = [];
  const cpuBefore = process.cpuUsage();
  for (let n = 0; n < sequential; n++) {
    const started = performance.now();
    await check();
    times.push(performance.now() - started);
  }
  const cpuUsed = process.cpuUsage(cpuBefore);
  times.sort((a, b) => a - b);
  const end = performance.now() + seconds * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        await check();
        done++;
      }
    }),
  );
  return {
    p50: times[Math.floor(times.length / 2)] as number,
    mean: times.reduce((sum, t) => sum + t, 0) / times.length,
    rps: done / seconds,
    cpu: (cpuUsed.user + cpuUsed.system) / sequential,
  };
}

interface Result {
  get: Figures;
  create: Figures;
}

async function measureServer(send: Send, namespace: string, prefix: string, label: string): Promise<Result> {
  const blob = "x".repeat(900);
  const one = `${prefix}-one`;
  const created = await send(
    "POST",
    `/api/v1/namespaces/${namespace}/configmaps`,
    JSON.stringify({ metadata: { name: one, labels: { "bench.kapi.dev/run": prefix } }, data: { blob } }),
  );
  if (created !== 201) throw new Error(`${label}: create answered ${created}`);
  const get = await measure(() => send("GET", `/api/v1/namespaces/${namespace}/configmaps/${one}`), 200);
  const create = await measure(
    (i) =>
      send(
        "POST",
        `/api/v1/namespaces/${namespace}/configmaps`,
        JSON.stringify({
          metadata: { name: `${prefix}-${i}`, labels: { "bench.kapi.dev/run": prefix } },
          data: { blob },
        }),
      ),
    201,
  );
  return { get, create };
}

async function ceiling(): Promise<Figures> {
  const body = JSON.stringify({ kind: "ConfigMap", data: { blob: "x".repeat(990) } }).slice(0, 1024);
  const server = createServer({ cert: certificates.cert, key: certificates.key }, (_req, res) => {
    res.writeHead(200, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const send = client(`https://127.0.0.1:${(server.address() as AddressInfo).port}`, "");
  const figures = await measure(() => send("GET", "/"), 200);
  server.close();
  server.closeAllConnections();
  return figures;
}

/** The metrics stage's own work for one answered GET, in ms, looped outside any server. */
async function metricsStageCost(): Promise<number> {
  const path = "/api/v1/namespaces/default/configmaps/one";
  const url = new URL(`https://127.0.0.1${path}`);
  const ctx = {
    info: parseRequestInfo("GET", path, url.searchParams),
    req: { method: "GET", headers: { accept: "application/json" } },
    url,
    path,
    route: {},
    res: { statusCode: 200, getHeader: () => "1024" },
    server: { metrics: new MetricRegistry() },
  } as unknown as RequestContext;
  const next = async () => {};
  const loops = 200_000;
  for (let i = 0; i < 20_000; i++) await metricsStage.run(ctx, next);
  const started = performance.now();
  for (let i = 0; i < loops; i++) await metricsStage.run(ctx, next);
  return (performance.now() - started) / loops;
}

const dir = mkdtempSync(join(tmpdir(), "kapi-bench-audit-"));
const policyFile = join(dir, "policy.yaml");
writeFileSync(policyFile, "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n");

function auditFlags(name: string) {
  const flags = parseAuditFlags({ "audit-policy-file": policyFile, "audit-log-path": join(dir, `${name}.log`) });
  if (flags === undefined) throw new Error("no audit flags");
  return { flags };
}

const configurations = [
  { name: "(a) base", options: { enablePriorityAndFairness: false } },
  { name: "(b) APF", options: {} },
  { name: "(c) audit", options: { enablePriorityAndFairness: false, audit: auditFlags("c") } },
  { name: "(d) APF+audit", options: { audit: auditFlags("d") } },
] as const;

const token = "bench";
const rounds = 3;
const samples = new Map<string, Result[]>(configurations.map((c) => [c.name, []]));
try {
  // A discarded warm-up round, then rounds in rotated order so that drift on a shared machine spreads evenly.
  for (let round = -1; round < rounds; round++) {
    for (let k = 0; k < configurations.length; k++) {
      const configuration = configurations[
        (k + Math.max(round, 0)) % configurations.length
      ] as (typeof configurations)[number];
      const kapi = await startServer({ certificates, adminToken: token, controllers: false, ...configuration.options });
      try {
        const result = await measureServer(client(kapi.url, token), "default", "a2", configuration.name);
        if (round >= 0) samples.get(configuration.name)?.push(result);
      } finally {
        await kapi.close();
      }
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

/** Each figure's median over the rounds. */
function median(results: Result[]): Result {
  const mid = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
  const figures = (pick: (r: Result) => Figures): Figures => ({
    p50: mid(results.map((r) => pick(r).p50)),
    mean: mid(results.map((r) => pick(r).mean)),
    rps: mid(results.map((r) => pick(r).rps)),
    cpu: mid(results.map((r) => pick(r).cpu)),
  });
  return { get: figures((r) => r.get), create: figures((r) => r.create) };
}
const results = new Map([...samples].map(([name, list]) => [name, median(list)]));
const top = await ceiling();

let reference: Result | undefined;
try {
  const send = client(
    "https://127.0.0.1:36443",
    readFileSync(join(homedir(), ".cache/kapi-reference/admin.token"), "utf8").trim(),
  );
  if ((await send("GET", "/readyz")) === 200) {
    const prefix = `a2-bench-${process.pid}`;
    try {
      reference = await measureServer(send, "default", prefix, "kube-apiserver");
    } finally {
      await send("DELETE", `/api/v1/namespaces/default/configmaps?labelSelector=bench.kapi.dev%2Frun%3D${prefix}`);
    }
  }
} catch {
  reference = undefined;
}

const stageMs = await metricsStageCost();
const base = results.get("(a) base") as Result;
const pct = (x: number, of: number) => `${((100 * x) / of).toFixed(0)}%`;
// The reference runs in its own process: this process's CPU is only the client's there, so it is not shown.
const row = (name: string, r: Result, inProcess = true) => {
  const cells = (f: Figures, b: Figures) =>
    `p50 ${f.p50.toFixed(3)} ms (×${(f.p50 / b.p50).toFixed(2)}) mean ${f.mean.toFixed(3)} ms, ` +
    `${f.rps.toFixed(0)} req/s (${pct(f.rps, b.rps)} of (a), ${pct(f.rps, top.rps)} of ceiling)` +
    (inProcess
      ? `, CPU ${f.cpu.toFixed(0)} µs/req (${f.cpu >= b.cpu ? "+" : ""}${(f.cpu - b.cpu).toFixed(0)}, ×${(f.cpu / b.cpu).toFixed(2)})`
      : "");
  console.log(`${name.padEnd(15)} GET    ${cells(r.get, base.get)}`);
  console.log(`${"".padEnd(15)} create ${cells(r.create, base.create)}`);
};
console.log(
  `ceiling (node:https, fixed 1 KiB): p50 ${top.p50.toFixed(3)} ms, ${top.rps.toFixed(0)} req/s; ` +
    `${sequential} sequential requests, ${concurrency} clients for ${seconds} s`,
);
for (const [name, result] of results) row(name, result);
if (reference === undefined) console.log("kube-apiserver  not measured: ../shared/reference is not running (start.sh)");
else row("kube-apiserver", reference, false);
console.log(
  `metrics stage per GET: ${(stageMs * 1000).toFixed(2)} µs, ${((100 * stageMs) / base.get.mean).toFixed(1)}% of (a)'s mean GET latency`,
);
