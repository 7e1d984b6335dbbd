// `kapi serve --workers N` against `--workers 1` in one run: GET one ConfigMap (concurrency 64) and create
// ConfigMaps (concurrency 32) over HTTPS keep-alive connections with the admin client certificate, and the
// CPU each process of the server spent per request (from /proc), so the cost of the IPC store shows apart
// from the noise of a shared machine.
// Usage: npx tsx bench/workers.ts [seconds per measurement] [worker counts, e.g. 1,2] [sqlite|memory]
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { Agent, request } from "node:https";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

const seconds = Number(process.argv[2] ?? 8);
const counts = (process.argv[3] ?? "1,2").split(",").map(Number);
const storage = process.argv[4] ?? "sqlite";
const root = join(import.meta.dirname, "..");
const ticksPerSecond = 100;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0));
    });
  });
}

/** CPU seconds a process has used (user + system). */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
  } catch {
    return 0;
  }
}

function children(pid: number): number[] {
  try {
    return (
      execFileSync("ps", ["-o", "pid=,args=", "--ppid", String(pid)], { encoding: "utf8" })
        .split("\n")
        // tsx's esbuild service is a child too.
        .filter((line) => line.includes("kapi.js"))
        .map((line) => Number.parseInt(line.trim(), 10))
    );
  } catch {
    return [];
  }
}

async function startKapi(workers: number, dir: string): Promise<{ child: ChildProcess; port: number }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      join(root, "bin/kapi.js"),
      "serve",
      "--workers",
      String(workers),
      "--storage",
      storage,
      "--data-dir",
      dir,
      "--secure-port",
      String(port),
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  await new Promise<void>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("admin kubeconfig:")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`kapi exited with ${code}`)));
  });
  return { child, port };
}

function clientAgent(dir: string): Agent {
  const kubeconfig = readFileSync(join(dir, "admin.kubeconfig"), "utf8");
  const field = (name: string) => Buffer.from(new RegExp(`${name}: (\\S+)`).exec(kubeconfig)?.[1] ?? "", "base64");
  return new Agent({
    keepAlive: true,
    maxSockets: 256,
    ca: field("certificate-authority-data"),
    cert: field("client-certificate-data"),
    key: field("client-key-data"),
  });
}

function call(agent: Agent, port: number, method: string, path: string, body?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port, method, path, agent, headers: { "Content-Type": "application/json" } },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

interface Run {
  perSecond: number;
  p99: number;
  /** CPU µs per request by process: primary first, then the workers. */
  cpuPerRequest: number[];
  clientCpuPerRequest: number;
  failures: number;
}

async function load(pids: number[], concurrency: number, send: (i: number) => Promise<number>): Promise<Run> {
  const before = pids.map(cpuSeconds);
  const client = process.cpuUsage();
  const latencies: number[] = [];
  let failures = 0;
  let next = 0;
  const started = performance.now();
  const end = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const t = performance.now();
        const status = await send(next++);
        latencies.push(performance.now() - t);
        if (status >= 300) failures++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const n = latencies.length;
  const clientUsed = process.cpuUsage(client);
  latencies.sort((a, b) => a - b);
  return {
    perSecond: n / elapsed,
    p99: latencies[Math.floor(n * 0.99)] ?? 0,
    cpuPerRequest: pids.map((pid, i) => ((cpuSeconds(pid) - (before[i] ?? 0)) * 1e6) / n),
    clientCpuPerRequest: (clientUsed.user + clientUsed.system) / n,
    failures,
  };
}

function show(label: string, workers: number, run: Run): void {
  const total = run.cpuPerRequest.reduce((a, b) => a + b, 0);
  const parts = run.cpuPerRequest.map((c) => c.toFixed(0)).join(" + ");
  console.log(
    `${label.padEnd(8)} workers=${workers}  ${run.perSecond.toFixed(0).padStart(6)}/s  p99 ${run.p99.toFixed(1).padStart(7)} ms` +
      `  server CPU ${total.toFixed(0)} µs/req (primary + workers: ${parts})  client ${run.clientCpuPerRequest.toFixed(0)} µs/req` +
      (run.failures > 0 ? `  ${run.failures} failed` : ""),
  );
}

for (const workers of counts) {
  const dir = mkdtempSync(join(tmpdir(), "kapi-bench-workers-"));
  const { child, port } = await startKapi(workers, dir);
  try {
    const agent = clientAgent(dir);
    const pid = child.pid as number;
    const pids = workers > 1 ? [pid, ...children(pid)] : [pid];
    const path = "/api/v1/namespaces/default/configmaps";
    const body = (name: string) => JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name } });
    await call(agent, port, "POST", path, body("bench"));
    // Warm both the connections (TLS handshakes) and the servers' hot paths.
    await load(pids, 64, () => call(agent, port, "GET", `${path}/bench`));
    show("GET", workers, await load(pids, 64, () => call(agent, port, "GET", `${path}/bench`)));
    show("create", workers, await load(pids, 32, (i) => call(agent, port, "POST", path, body(`c-${i}`))));
    agent.destroy();
  } finally {
    await new Promise<void>((resolve) => {
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
    rmSync(dir, { recursive: true, force: true });
  }
}
