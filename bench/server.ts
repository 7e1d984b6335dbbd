// The HTTP server end to end, as ratios against a bare node:https server answering a fixed 1 KiB JSON
// body in the same process (the ceiling): GET one object, create, update, LIST 10k pods, a write's watch
// event delivered to 300 HTTP watchers (read in a worker thread), and in-process start to ready.
// Usage: npx tsx bench/server.ts [seconds per measurement] [watchers] [pods]
import { Agent, createServer, request } from "node:https";
import type { AddressInfo } from "node:net";
import { Worker } from "node:worker_threads";
import { createServingCertificates } from "../runtime/http/certificates.js";
import { startServer } from "../runtime/index.js";

const seconds = Number(process.argv[2] ?? 3);
const watchers = Number(process.argv[3] ?? 300);
const pods = Number(process.argv[4] ?? 10_000);
const concurrency = 16;
const certificates = createServingCertificates({ dns: ["localhost"], ips: ["127.0.0.1"] });
const agent = new Agent({ keepAlive: true, maxSockets: 512, ca: certificates.caCert });

interface Call {
  method: string;
  path: string;
  body?: string;
}

function call(base: string, token: string, c: Call): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${base}${c.path}`,
      {
        method: c.method,
        agent,
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", Accept: "application/json" },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      },
    );
    req.on("error", reject);
    req.end(c.body);
  });
}

/** Requests per second with `concurrency` keep-alive clients for `seconds`. */
async function throughput(send: (i: number) => Promise<unknown>): Promise<number> {
  const end = performance.now() + seconds * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) await send(done++);
    }),
  );
  return done / seconds;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
}

async function ceiling(): Promise<number> {
  const body = JSON.stringify({ kind: "ConfigMap", data: { blob: "x".repeat(990) } }).slice(0, 1024);
  const server = createServer({ cert: certificates.cert, key: certificates.key }, (_req, res) => {
    res.writeHead(200, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const rps = await throughput(() => call(base, "", { method: "GET", path: "/" }));
  server.close();
  server.closeAllConnections();
  return rps;
}

/** Each write's event, from the write's start to its arrival at each watcher (held in a worker thread). */
async function watchFanOut(base: string, token: string): Promise<number[]> {
  const { body } = await call(base, token, { method: "GET", path: "/api/v1/namespaces/default/configmaps" });
  const rv = (JSON.parse(body) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
  const url = `${base}/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${rv}`;
  const entry = new URL("./watch-clients.ts", import.meta.url).href;
  // A worker cannot start from a .ts file; this bootstrap registers tsx in the worker first.
  const bootstrap = `import("tsx/esm/api").then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`;
  const worker = new Worker(bootstrap, { eval: true, workerData: { url, token, ca: certificates.caCert, watchers } });
  await new Promise<void>((resolve) => worker.once("message", () => resolve()));
  const latencies: number[] = [];
  for (let i = 0; i < 100; i++) {
    const started = performance.timeOrigin + performance.now();
    await call(base, token, {
      method: "POST",
      path: "/api/v1/namespaces/default/configmaps",
      body: JSON.stringify({ metadata: { name: `fan-${i}` }, data: { k: "v" } }),
    });
    let arrivals: number[] = [];
    while (arrivals.length < watchers) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      worker.postMessage({ collect: true });
      const batch = await new Promise<number[]>((resolve) =>
        worker.once("message", (m: { arrivals: number[] }) => resolve(m.arrivals)),
      );
      arrivals = arrivals.concat(batch);
    }
    for (const at of arrivals) latencies.push(at - started);
  }
  await worker.terminate();
  return latencies.sort((a, b) => a - b);
}

async function main(): Promise<void> {
  const startedAt = performance.now();
  const kapi = await startServer({ certificates });
  const startMs = performance.now() - startedAt;
  const token = /token: (\S+)/.exec(kapi.kubeconfig)?.[1] ?? "";
  const base = kapi.url;
  const blob = "x".repeat(900);
  await call(base, token, {
    method: "POST",
    path: "/api/v1/namespaces/default/configmaps",
    body: JSON.stringify({ metadata: { name: "one" }, data: { blob } }),
  });

  const top = await ceiling();
  const get = await throughput(() =>
    call(base, token, { method: "GET", path: "/api/v1/namespaces/default/configmaps/one" }),
  );
  const create = await throughput((i) =>
    call(base, token, {
      method: "POST",
      path: "/api/v1/namespaces/default/configmaps",
      body: JSON.stringify({ metadata: { name: `c-${i}` }, data: { blob } }),
    }),
  );
  const update = await throughput((i) =>
    call(base, token, {
      method: "PUT",
      path: "/api/v1/namespaces/default/configmaps/one",
      body: JSON.stringify({ metadata: { name: "one" }, data: { blob, i: String(i) } }),
    }),
  );

  await call(base, token, {
    method: "POST",
    path: "/api/v1/namespaces",
    body: JSON.stringify({ metadata: { name: "bench" } }),
  });
  for (let i = 0; i < pods; i += concurrency) {
    await Promise.all(
      Array.from({ length: Math.min(concurrency, pods - i) }, (_, j) =>
        call(base, token, {
          method: "POST",
          path: "/api/v1/namespaces/bench/pods",
          body: JSON.stringify({
            metadata: { name: `p-${i + j}`, labels: { app: "bench" } },
            spec: { containers: [{ name: "c", image: "nginx:1.27" }] },
          }),
        }),
      ),
    );
  }
  const listRounds = 10;
  const listStart = performance.now();
  let listBytes = 0;
  for (let i = 0; i < listRounds; i++) {
    listBytes = (await call(base, token, { method: "GET", path: "/api/v1/namespaces/bench/pods" })).body.length;
  }
  const listMs = (performance.now() - listStart) / listRounds;

  const fan = await watchFanOut(base, token);
  await kapi.close();
  const ratio = (x: number) => `${((100 * x) / top).toFixed(1)}% of ceiling`;
  console.log(`ceiling (node:https, fixed 1 KiB JSON): ${top.toFixed(0)} req/s, ${concurrency} keep-alive clients`);
  console.log(`GET one object: ${get.toFixed(0)} req/s (${ratio(get)})`);
  console.log(`create: ${create.toFixed(0)} req/s (${ratio(create)})`);
  console.log(`update: ${update.toFixed(0)} req/s (${ratio(update)})`);
  console.log(`LIST ${pods} pods: ${listMs.toFixed(1)} ms per list (${(listBytes / 1e6).toFixed(1)} MB)`);
  console.log(
    `watch fan-out to ${watchers} watchers: p50 ${percentile(fan, 0.5).toFixed(2)} ms, p99 ${percentile(fan, 0.99).toFixed(2)} ms`,
  );
  console.log(`in-process start to ready: ${startMs.toFixed(1)} ms`);
}

await main();
