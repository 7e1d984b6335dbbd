// Event-loop stalls of the server under issue 22's load shapes: kapi on SQLite in this process, its event
// loop watched by perf_hooks.monitorEventLoopDelay, and every client in a worker thread so that only the
// server shares the loop. Each shape runs for a few seconds next to a steady trickle of small GETs; per shape
// it prints the loop delay's max and p99, the longest GC pause, the small GETs' p99 and the shape's
// operations done.
// Usage: npx tsx bench/event-loop-stalls.ts [seconds per shape] [pods] [configmaps] [shape names…]
import { mkdtempSync, rmSync } from "node:fs";
import { Agent, request } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";

interface Shape {
  name: string;
  /** Concurrent loops of `path` (GET unless `write`), each request awaited to its last byte. */
  loops: number;
  path?: string;
  accept?: string;
  /** A watch: read until this many lines (events) arrived, then hang up. */
  watchLines?: number;
  /** Creates then updates of ConfigMaps, each loop on its own names. */
  write?: boolean;
  /** Follow continue tokens until the list is done (one operation per whole list). */
  paged?: boolean;
}

interface ClientSetup {
  base: string;
  token: string;
  ca: string;
  seconds: number;
}

interface ShapeResult {
  ops: number;
  getP99: number;
  getMax: number;
  gets: number;
  errors: number;
}

const podsNamespace = "stall-pods";
const configMapsNamespace = "stall-cms";
const writesNamespace = "stall-writes";
const smallGetPath = `/api/v1/namespaces/${configMapsNamespace}/configmaps/cm-0`;

function shapes(pods: number, configMaps: number): Shape[] {
  const podList = `/api/v1/namespaces/${podsNamespace}/pods`;
  const table = "application/json;as=Table;v=v1;g=meta.k8s.io";
  const protobuf = "application/vnd.kubernetes.protobuf";
  return [
    { name: "small GETs alone", loops: 0 },
    // The first protobuf answer loads the protobuf descriptors: a one-time cost, kept apart from the LISTs.
    { name: "small GETs, protobuf", loops: 1, path: smallGetPath, accept: protobuf },
    {
      name: `LIST ${configMaps} ConfigMaps JSON`,
      loops: 2,
      path: `/api/v1/namespaces/${configMapsNamespace}/configmaps`,
    },
    { name: `LIST ${pods} Pods JSON`, loops: 2, path: podList },
    { name: `LIST ${pods} Pods protobuf`, loops: 2, path: podList, accept: protobuf },
    { name: `LIST ${pods} Pods Table`, loops: 1, path: podList, accept: table },
    { name: `LIST ${pods} Pods JSON paged 500`, loops: 2, path: `${podList}?limit=500`, paged: true },
    { name: `LIST ${pods} Pods rv=0 protobuf`, loops: 2, path: `${podList}?resourceVersion=0`, accept: protobuf },
    {
      name: `watch ${pods} Pods sendInitialEvents`,
      loops: 2,
      path: `${podList}?watch=1&sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan`,
      watchLines: pods + 1,
    },
    { name: `watch ${pods} Pods rv=0`, loops: 2, path: `${podList}?watch=1&resourceVersion=0`, watchLines: pods },
    { name: "creates + updates, conc 32", loops: 32, write: true },
  ];
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
}

// ---- client side (worker thread) ----

async function client(setup: ClientSetup): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: 256, ca: setup.ca });
  const headers = (accept = "application/json") => ({
    Authorization: `Bearer ${setup.token}`,
    Accept: accept,
    "Content-Type": "application/json",
  });
  let writeSerial = 0;

  const send = (method: string, path: string, accept?: string, body?: string) =>
    new Promise<{ status: number; body: Buffer }>((resolve, reject) => {
      const req = request(`${setup.base}${path}`, { method, agent, headers: headers(accept) }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
        res.on("error", reject);
      });
      req.on("error", reject);
      req.end(body);
    });

  const watchUntil = (path: string, lines: number) =>
    new Promise<void>((resolve, reject) => {
      const req = request(`${setup.base}${path}`, { agent: false, ca: setup.ca, headers: headers() }, (res) => {
        let seen = 0;
        res.on("data", (chunk: Buffer) => {
          for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) seen++;
          if (seen >= lines) {
            req.destroy();
            resolve();
          }
        });
        res.on("end", () => reject(new Error(`watch ended after ${seen} of ${lines} lines`)));
      });
      req.on("error", (error) => {
        if (!req.destroyed || (error as { code?: string }).code !== "ECONNRESET") reject(error);
      });
      req.end();
    });

  const operation = async (shape: Shape): Promise<void> => {
    if (shape.write) {
      const name = `w-${writeSerial++}`;
      const created = await send(
        "POST",
        `/api/v1/namespaces/${writesNamespace}/configmaps`,
        undefined,
        JSON.stringify({ metadata: { name }, data: { blob: "x".repeat(900) } }),
      );
      if (created.status !== 201) throw new Error(`create: ${created.status}`);
      const object = JSON.parse(created.body.toString()) as { data: Record<string, string> };
      object.data.more = "y";
      const updated = await send(
        "PUT",
        `/api/v1/namespaces/${writesNamespace}/configmaps/${name}`,
        undefined,
        JSON.stringify(object),
      );
      if (updated.status !== 200) throw new Error(`update: ${updated.status}`);
      return;
    }
    const path = shape.path as string;
    if (shape.watchLines !== undefined) return watchUntil(path, shape.watchLines);
    let next: string | undefined = path;
    while (next !== undefined) {
      const { status, body } = await send("GET", next, shape.accept);
      if (status !== 200) throw new Error(`${next}: ${status}`);
      next = undefined;
      if (shape.paged) {
        const token = (JSON.parse(body.toString()) as { metadata: { continue?: string } }).metadata.continue;
        if (token) next = `${path}&continue=${encodeURIComponent(token)}`;
      }
    }
  };

  const run = async (shape: Shape): Promise<ShapeResult> => {
    const end = performance.now() + setup.seconds * 1000;
    const latencies: number[] = [];
    let ops = 0;
    let errors = 0;
    const gets = Array.from({ length: 2 }, async () => {
      while (performance.now() < end) {
        const started = performance.now();
        const { status } = await send("GET", smallGetPath);
        if (status !== 200) errors++;
        latencies.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    });
    const loads = Array.from({ length: shape.loops }, async () => {
      while (performance.now() < end) {
        try {
          await operation(shape);
          ops++;
        } catch (error) {
          errors++;
          if (errors < 3) console.error(`${shape.name}: ${(error as Error).message}`);
        }
      }
    });
    await Promise.all([...gets, ...loads]);
    latencies.sort((a, b) => a - b);
    return {
      ops,
      getP99: percentile(latencies, 0.99),
      getMax: latencies.at(-1) ?? Number.NaN,
      gets: latencies.length,
      errors,
    };
  };

  parentPort?.on("message", async (shape: Shape) => {
    parentPort?.postMessage(await run(shape));
  });
  parentPort?.postMessage({ ready: true });
}

// ---- server side (main thread) ----

function pod(name: string): object {
  const env = Array.from({ length: 12 }, (_, i) => ({ name: `SETTING_${i}`, value: `value-${i}-${"v".repeat(40)}` }));
  return {
    metadata: { name, labels: { app: "stall", tier: "bench", shard: name.slice(-1) } },
    spec: {
      containers: [
        {
          name: "app",
          image: "registry.example/app:1.27",
          command: ["/bin/app", "--serve", "--port=8080"],
          env,
          ports: [{ containerPort: 8080, name: "http" }],
          resources: { requests: { cpu: "100m", memory: "128Mi" }, limits: { cpu: "500m", memory: "256Mi" } },
        },
        { name: "sidecar", image: "registry.example/sidecar:2.1", args: ["--verbose"] },
      ],
    },
  };
}

async function seed(
  call: (method: string, path: string, body: object) => Promise<number>,
  pods: number,
  configMaps: number,
): Promise<void> {
  for (const ns of [podsNamespace, configMapsNamespace, writesNamespace]) {
    await call("POST", "/api/v1/namespaces", { metadata: { name: ns } });
  }
  // Without controllers nobody makes the namespace's default ServiceAccount, which Pod admission looks up.
  await call("POST", `/api/v1/namespaces/${podsNamespace}/serviceaccounts`, { metadata: { name: "default" } });
  const all = (count: number, one: (i: number) => Promise<number>) => {
    let next = 0;
    return Promise.all(
      Array.from({ length: 32 }, async () => {
        while (next < count) {
          const status = await one(next++);
          if (status !== 201) throw new Error(`seeding: ${status}`);
        }
      }),
    );
  };
  await all(configMaps, (i) =>
    call("POST", `/api/v1/namespaces/${configMapsNamespace}/configmaps`, {
      metadata: { name: `cm-${i}` },
      data: { blob: "x".repeat(900) },
    }),
  );
  await all(pods, (i) => call("POST", `/api/v1/namespaces/${podsNamespace}/pods`, pod(`p-${i}`)));
}

async function main(): Promise<void> {
  const { startServer } = await import("../runtime/index.js");
  const { SqliteStore } = await import("../runtime/storage/sqlite-store.js");
  const { createServingCertificates } = await import("../runtime/http/certificates.js");
  const seconds = Number(process.argv[2] ?? 3);
  const pods = Number(process.argv[3] ?? 10_000);
  const configMaps = Number(process.argv[4] ?? 3_000);
  const only = process.argv.slice(5);
  const dir = mkdtempSync(join(tmpdir(), "kapi-stalls-"));
  const certificates = createServingCertificates({ dns: ["localhost"], ips: ["127.0.0.1"] });
  // No controllers: the loop carries the requests of the load shapes alone.
  const kapi = await startServer({ certificates, controllers: false, store: SqliteStore.open(join(dir, "kapi.db")) });
  try {
    const seedStart = performance.now();
    await seed(async (method, path, body) => (await kapi.request({ method, path, body })).status, pods, configMaps);
    console.log(
      `seeded ${pods} Pods and ${configMaps} ConfigMaps in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`,
    );

    const entry = new URL(import.meta.url).href;
    // A worker cannot start from a .ts file; this bootstrap registers tsx in the worker first.
    const bootstrap = `import("tsx/esm/api").then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`;
    const setup: ClientSetup = { base: kapi.url, token: kapi.adminToken, ca: certificates.caCert, seconds };
    const worker = new Worker(bootstrap, { eval: true, workerData: setup });
    await new Promise<void>((resolve) => worker.once("message", () => resolve()));

    const delay = monitorEventLoopDelay({ resolution: 2 });
    let gcMax = 0;
    const gc = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) gcMax = Math.max(gcMax, entry.duration);
    });
    gc.observe({ entryTypes: ["gc"] });
    delay.enable();
    const rows: string[][] = [];
    for (const shape of shapes(pods, configMaps)) {
      if (only.length > 0 && !only.some((word) => shape.name.includes(word))) continue;
      delay.reset();
      gcMax = 0;
      const cpu = process.cpuUsage();
      worker.postMessage(shape);
      const result = await new Promise<ShapeResult>((resolve) => worker.once("message", resolve));
      const used = process.cpuUsage(cpu);
      rows.push([
        shape.name,
        (delay.max / 1e6).toFixed(1),
        (delay.percentile(99) / 1e6).toFixed(1),
        gcMax.toFixed(1),
        result.getP99.toFixed(1),
        result.getMax.toFixed(1),
        String(result.ops),
        (((used.user + used.system) / 1e6 / seconds) * 100).toFixed(0),
        String(result.errors),
      ]);
    }
    gc.disconnect();
    await worker.terminate();
    const head = [
      "shape",
      "loop max ms",
      "loop p99 ms",
      "GC max ms",
      "GET p99 ms",
      "GET max ms",
      "ops",
      "server CPU %",
      "errors",
    ];
    console.log(`| ${head.join(" | ")} |\n|${head.map(() => "---").join("|")}|`);
    for (const row of rows) console.log(`| ${row.join(" | ")} |`);
  } finally {
    await kapi.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (isMainThread) await main();
else await client(workerData as ClientSetup);
