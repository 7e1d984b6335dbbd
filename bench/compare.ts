// Issue 22's side-by-side benchmark: the same workloads, with the same client, against kube-apiserver
// v1.36.2 + etcd (when ../shared/reference exists) and against kapi as a user runs it, one after the
// other in one run, with a bare node:https server as the ceiling of the small requests; prints the ratio
// table and the targets (docs/performance.md).
// Usage: npx tsx bench/compare.ts [--seconds N] [--only workload,...] [--kapi-arg=ARG ...] [--json FILE]
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, homedir, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createServingCertificates } from "../runtime/http/certificates.js";
import { LoadGenerator } from "./compare/load.js";
import { parseCompareOptions, usage } from "./compare/options.js";
import { compareRows, type Figures, formatDetails, formatTable, type WorkloadDetail } from "./compare/report.js";
import {
  type ReferenceKit,
  referenceAdminToken,
  type ServerUnderTest,
  startCeiling,
  startKapi,
  startKube,
  writeAdminTokenFile,
} from "./compare/servers.js";
import { summarize } from "./compare/stats.js";
import { runWorkloads, type ServerFigures } from "./compare/workloads.js";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const log = (line: string) => console.error(line);

/** The reference kit when ../shared/reference and its binaries and PKI exist, else why not. */
function findReference(): ReferenceKit | string {
  const kitDir = resolve(repo, "../shared/reference");
  if (!existsSync(kitDir)) return `no reference kit at ${kitDir}`;
  const home = process.env.KAPI_REF_HOME ?? join(homedir(), ".cache/kapi-reference");
  const kit = { bin: join(home, "bin"), pki: join(home, "pki") };
  for (const file of [join(kit.bin, "etcd"), join(kit.bin, "kube-apiserver"), join(kit.pki, "tokens.csv")]) {
    if (!existsSync(file)) return `${file} is missing (run ${kitDir}/setup.sh and start.sh once)`;
  }
  return kit;
}

/** The ceiling for the small-request rows: GET at conc 64 and POST of a ConfigMap-sized body at conc 32. */
async function measureCeiling(server: ServerUnderTest, seconds: number, threads: number): Promise<Figures> {
  const load = await LoadGenerator.start({ ...server.client, maxSockets: 256 }, threads);
  try {
    const get = await load.run({ method: "GET", path: "/", concurrency: 64, seconds, firstIndex: 0, firstSlot: 0 });
    const body = JSON.stringify({ metadata: { name: "c-{i}" }, data: { blob: "x".repeat(900) } });
    const post = await load.run({
      method: "POST",
      path: "/",
      body,
      concurrency: 32,
      seconds,
      firstIndex: 0,
      firstSlot: 0,
    });
    const g = summarize(get.latencies);
    const p = summarize(post.latencies);
    return {
      "get-64": (get.ok * 1000) / get.elapsedMs,
      "get-64-p50": g.p50,
      "get-64-p99": g.p99,
      "post-32": (post.ok * 1000) / post.elapsedMs,
      "post-32-p99": p.p99,
    };
  } finally {
    await load.stop();
  }
}

async function measureServer(
  start: () => Promise<ServerUnderTest>,
  run: (s: ServerUnderTest) => Promise<ServerFigures>,
) {
  const server = await start();
  try {
    return await run(server);
  } finally {
    await server.stop();
  }
}

async function main(): Promise<void> {
  let options: ReturnType<typeof parseCompareOptions>;
  try {
    options = parseCompareOptions(process.argv.slice(2));
  } catch (error) {
    console.error(`${(error as Error).message}\n${usage}`);
    process.exit(2);
  }
  const workDir = mkdtempSync(join(tmpdir(), "kapi-compare-"));
  const started = performance.now();
  const machine = `${cpus().length} cores, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")} at start`;
  log(`bench/compare: ${machine}; work directory ${workDir}`);
  try {
    if (options.build) {
      log("building kapi (scripts/build-package.ts --js-only --if-changed)");
      execFileSync(
        process.execPath,
        ["--import", "tsx", join(repo, "scripts/build-package.ts"), "--js-only", "--if-changed"],
        {
          cwd: repo,
          // Its progress goes to stderr with the bench's: stdout carries only the tables.
          stdio: ["ignore", process.stderr, "inherit"],
        },
      );
    }
    const workloadOptions = {
      seconds: options.seconds,
      only: options.only,
      clientThreads: options.clientThreads,
      watchers: options.watchers,
      pods: options.pods,
      log,
    };

    const certificates = createServingCertificates({ dns: ["localhost"], ips: ["127.0.0.1"] });
    const certFile = join(workDir, "ceiling.crt");
    const keyFile = join(workDir, "ceiling.key");
    writeFileSync(certFile, certificates.cert);
    writeFileSync(keyFile, certificates.key, { mode: 0o600 });
    log("ceiling: bare node:https, fixed 1 KiB JSON");
    const ceilingServer = await startCeiling(repo, workDir, { certFile, keyFile, ca: certificates.caCert });
    let ceiling: Figures;
    try {
      ceiling = await measureCeiling(ceilingServer, options.seconds, options.clientThreads);
    } finally {
      await ceilingServer.stop();
    }

    const reference = options.kube ? findReference() : "--no-kube given";
    let kube: ServerFigures | undefined;
    if (typeof reference === "string") {
      log(`kube-apiserver column skipped: ${reference}`);
    } else {
      log("kube-apiserver v1.36.2 + etcd: starting");
      const kubeDir = join(workDir, "kube");
      execFileSync("mkdir", ["-p", kubeDir]);
      kube = await measureServer(
        () => startKube(reference, kubeDir),
        (s) => runWorkloads(s, workloadOptions),
      );
    }

    const token = typeof reference === "string" ? randomBytes(16).toString("hex") : referenceAdminToken(reference);
    const tokenFile =
      typeof reference === "string" ? writeAdminTokenFile(workDir, token) : join(reference.pki, "tokens.csv");
    log(`kapi ${["serve", ...options.kapiArgs].join(" ")}: starting`);
    const kapi = await measureServer(
      () => startKapi({ repo, workDir, token, tokenFile, extraArgs: options.kapiArgs }),
      (s) => runWorkloads(s, workloadOptions),
    );

    const rows = compareRows(kube?.figures, kapi.figures, ceiling, options.pods);
    const names = [...new Set([...Object.keys(kube?.measures ?? {}), ...Object.keys(kapi.measures)])];
    const details: WorkloadDetail[] = names.map((workload) => {
      const k = kube?.measures[workload];
      const a = kapi.measures[workload];
      const d: WorkloadDetail = { workload };
      if (k !== undefined) {
        Object.assign(d, { kubeCores: k.cores, kubeCpuMsPerRequest: k.cpuMsPerRequest, kubeErrors: k.failed });
      }
      if (a !== undefined) {
        Object.assign(d, { kapiCores: a.cores, kapiCpuMsPerRequest: a.cpuMsPerRequest, kapiErrors: a.failed });
      }
      if (a?.eventLoopMaxMs !== undefined) d.kapiEventLoopMaxMs = a.eventLoopMaxMs;
      return d;
    });
    const minutes = ((performance.now() - started) / 60_000).toFixed(1);
    const header = `kapi ${["serve", ...options.kapiArgs].join(" ")} vs ${
      kube === undefined ? "no kube-apiserver" : "kube-apiserver v1.36.2 + etcd"
    }; --seconds ${options.seconds}, ${options.clientThreads} client thread(s); ${machine}; ${minutes} min`;
    console.log(`${header}\n\n${formatTable(rows)}\n\n${formatDetails(details)}`);
    if (options.json !== undefined) {
      const report = { header, options: { ...options, only: [...options.only] }, ceiling, kube, kapi, rows, details };
      writeFileSync(options.json, `${JSON.stringify(report, null, 2)}\n`);
    }
  } catch (error) {
    log(`bench/compare failed; logs kept in ${workDir}`);
    throw error;
  }
  rmSync(workDir, { recursive: true, force: true });
}

await main();
