// GET one ConfigMap over HTTP/1.1 and HTTP/2 against the same kapi server (a child process, so its CPU time is
// its own): 64 keep-alive HTTP/1.1 sockets against one HTTP/2 session carrying 64 concurrent streams, each
// measured twice, alternating. Prints requests/s and the server's CPU µs per request for each.
// Usage: npx tsx bench/http2.ts [seconds per measurement] [concurrency]
import { fork } from "node:child_process";
import { connect } from "node:http2";
import { Agent, request } from "node:https";
import { fileURLToPath } from "node:url";
import { startServer } from "../runtime/index.js";

const path = "/api/v1/namespaces/default/configmaps/bench";
/** tls.connect's ALPN list, passed on by node:https though its request options do not name it. */
const offerHttp1Only = { ALPNProtocols: ["http/1.1"] } as object;

interface Ready {
  url: string;
  token: string;
}

/** The child: a kapi server answering `cpu` with its process's CPU time so far (µs). */
async function serveChild(): Promise<void> {
  const server = await startServer({ controllers: false });
  await server.request({
    method: "POST",
    path: "/api/v1/namespaces/default/configmaps",
    body: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "bench" }, data: { key: "value" } },
  });
  process.on("message", async (message) => {
    if (message === "cpu") {
      const { user, system } = process.cpuUsage();
      process.send?.({ cpu: user + system });
    } else if (message === "stop") {
      await server.close();
      process.exit(0);
    }
  });
  process.send?.({ url: server.url, token: server.adminToken } satisfies Ready);
}

async function measure(
  seconds: number,
  concurrency: number,
  child: ReturnType<typeof fork>,
  get: () => Promise<void>,
): Promise<{ rate: number; cpuPerRequest: number }> {
  const cpu = () =>
    new Promise<number>((resolve) => {
      child.once("message", (m: { cpu: number }) => resolve(m.cpu));
      child.send("cpu");
    });
  const warm = performance.now() + 500;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < warm) await get();
    }),
  );
  const before = await cpu();
  const started = performance.now();
  const end = started + seconds * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        await get();
        done++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const used = (await cpu()) - before;
  return { rate: done / elapsed, cpuPerRequest: used / done };
}

async function main(): Promise<void> {
  const seconds = Number(process.argv[2] ?? 4);
  const concurrency = Number(process.argv[3] ?? 64);
  const child = fork(fileURLToPath(import.meta.url), ["--serve"], { execArgv: process.execArgv });
  const ready = await new Promise<Ready>((resolve) => child.once("message", (m: Ready) => resolve(m)));
  const headers = { authorization: `Bearer ${ready.token}`, accept: "application/json" };

  const agent = new Agent({ keepAlive: true, maxSockets: concurrency, rejectUnauthorized: false });
  const http1 = () =>
    new Promise<void>((resolve, reject) => {
      const req = request(`${ready.url}${path}`, { agent, headers, ...offerHttp1Only }, (res) => {
        if (res.statusCode !== 200) reject(new Error(`HTTP/1.1 GET: ${res.statusCode}`));
        res.resume();
        res.on("end", resolve);
      });
      req.on("error", reject);
      req.end();
    });
  const session = connect(ready.url, { rejectUnauthorized: false });
  const http2 = () =>
    new Promise<void>((resolve, reject) => {
      const stream = session.request({ ":path": path, ...headers });
      stream.on("response", (h) => {
        if (h[":status"] !== 200) reject(new Error(`HTTP/2 GET: ${h[":status"]}`));
      });
      stream.resume();
      stream.on("end", resolve);
      stream.on("error", reject);
    });

  const rows: string[] = [];
  for (let round = 1; round <= 2; round++) {
    for (const [name, get] of [
      [`HTTP/1.1, ${concurrency} sockets`, http1],
      [`HTTP/2, 1 session × ${concurrency} streams`, http2],
    ] as const) {
      const { rate, cpuPerRequest } = await measure(seconds, concurrency, child, get);
      rows.push(`| ${name} (run ${round}) | ${Math.round(rate)} /s | ${Math.round(cpuPerRequest)} µs |`);
    }
  }
  console.log("| client | GET one ConfigMap | server CPU per request |\n|---|---|---|");
  console.log(rows.join("\n"));
  session.close();
  agent.destroy();
  child.send("stop");
}

if (process.argv.includes("--serve")) await serveChild();
else await main();
