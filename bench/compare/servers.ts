// Starting and stopping what bench/compare.ts measures, each as its own processes on free ports: kapi as a
// user runs it (`node dist/esm/cli.js serve` on SQLite in a fresh data directory), kube-apiserver v1.36.2
// with its own etcd (fresh data, fsync as etcd defaults to) and start.sh's flags, and the ceiling.
import { type ChildProcess, spawn } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { networkInterfaces } from "node:os";
import { join } from "node:path";
import { BenchClient, type ClientConfig } from "./client.js";
import { freePort, waitFor } from "./processes.js";

export interface ServerUnderTest {
  name: string;
  client: ClientConfig;
  /** The processes whose trees are the server (CPU time, memory). */
  pids: number[];
  /** Whether /metrics carries kapi's nodejs_eventloop_lag_max_seconds. */
  eventLoopMetrics: boolean;
  stop(): Promise<void>;
}

function launch(command: string, args: readonly string[], logFile: string): ChildProcess {
  const log = createWriteStream(logFile);
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  return child;
}

async function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const killer = setTimeout(() => child.kill("SIGKILL"), 15_000);
  await exited;
  clearTimeout(killer);
}

function exitedEarly(child: ChildProcess, name: string, logFile: string): void {
  if (child.exitCode !== null || child.signalCode !== null) {
    throw new Error(`${name} exited (${child.exitCode ?? child.signalCode}); see ${logFile}`);
  }
}

/** Waits until /readyz answers ok and the default namespace exists (kube makes it just after ready). */
async function waitReady(name: string, config: ClientConfig, child: ChildProcess, logFile: string): Promise<void> {
  const client = new BenchClient({ ...config, maxSockets: 1 });
  try {
    await waitFor(
      `${name} to be ready`,
      180_000,
      async () => {
        const ready = await client.send("GET", "/readyz");
        if (ready.status !== 200) return false;
        return (await client.send("GET", "/api/v1/namespaces/default")).status === 200;
      },
      () => exitedEarly(child, name, logFile),
    );
  } finally {
    client.close();
  }
}

export interface KapiOptions {
  repo: string;
  workDir: string;
  token: string;
  tokenFile: string;
  extraArgs: readonly string[];
}

export async function startKapi(options: KapiOptions): Promise<ServerUnderTest> {
  const port = await freePort();
  const dataDir = join(options.workDir, "kapi-data");
  const logFile = join(options.workDir, "kapi.log");
  const args = [
    join(options.repo, "dist/esm/cli.js"),
    "serve",
    `--secure-port=${port}`,
    "--bind-address=127.0.0.1",
    `--data-dir=${dataDir}`,
    `--token-auth-file=${options.tokenFile}`,
    ...options.extraArgs,
  ];
  const child = launch(process.execPath, args, logFile);
  const caFile = join(dataDir, "pki", "ca.crt");
  await waitFor(
    "kapi's CA certificate",
    60_000,
    async () => existsSync(caFile) && readFileSync(caFile, "utf8").includes("END CERTIFICATE"),
    () => exitedEarly(child, "kapi", logFile),
  );
  const client = {
    base: `https://127.0.0.1:${port}`,
    token: options.token,
    ca: readFileSync(caFile, "utf8"),
    maxSockets: 1,
  };
  await waitReady("kapi", client, child, logFile);
  return {
    name: "kapi",
    client,
    pids: [child.pid ?? 0],
    eventLoopMetrics: true,
    stop: () => terminate(child),
  };
}

export interface ReferenceKit {
  /** ~/.cache/kapi-reference/bin: etcd and kube-apiserver. */
  bin: string;
  /** ~/.cache/kapi-reference/pki: CA, serving certificate, service account keys, tokens.csv. */
  pki: string;
}

/** The first non-loopback IPv4 address: kube publishes it in default/kubernetes, which refuses loopback. */
function advertiseAddress(): string {
  for (const addresses of Object.values(networkInterfaces())) {
    for (const a of addresses ?? []) {
      if (a.family === "IPv4" && !a.internal && !a.address.startsWith("169.254.")) return a.address;
    }
  }
  return "192.0.2.1";
}

export async function startKube(kit: ReferenceKit, workDir: string): Promise<ServerUnderTest> {
  const [etcdPort, peerPort, apiPort] = [await freePort(), await freePort(), await freePort()];
  const etcdUrl = `http://127.0.0.1:${etcdPort}`;
  const peerUrl = `http://127.0.0.1:${peerPort}`;
  const etcdLog = join(workDir, "etcd.log");
  const etcd = launch(
    join(kit.bin, "etcd"),
    [
      "--name=bench",
      `--data-dir=${join(workDir, "etcd-data")}`,
      `--listen-client-urls=${etcdUrl}`,
      `--advertise-client-urls=${etcdUrl}`,
      `--listen-peer-urls=${peerUrl}`,
      `--initial-advertise-peer-urls=${peerUrl}`,
      `--initial-cluster=bench=${peerUrl}`,
      "--quota-backend-bytes=8589934592",
    ],
    etcdLog,
  );
  try {
    await waitFor(
      "etcd to be healthy",
      60_000,
      async () => (await (await fetch(`${etcdUrl}/health`)).text()).includes('"health":"true"'),
      () => exitedEarly(etcd, "etcd", etcdLog),
    );
  } catch (error) {
    await terminate(etcd);
    throw error;
  }
  const pki = (file: string) => join(kit.pki, file);
  const apiLog = join(workDir, "kube-apiserver.log");
  const apiserver = launch(
    join(kit.bin, "kube-apiserver"),
    [
      "--bind-address=127.0.0.1",
      `--secure-port=${apiPort}`,
      `--advertise-address=${advertiseAddress()}`,
      `--etcd-servers=${etcdUrl}`,
      `--tls-cert-file=${pki("apiserver.crt")}`,
      `--tls-private-key-file=${pki("apiserver.key")}`,
      `--client-ca-file=${pki("ca.crt")}`,
      `--token-auth-file=${pki("tokens.csv")}`,
      "--anonymous-auth=true",
      "--authorization-mode=Node,RBAC",
      `--service-account-key-file=${pki("sa.pub")}`,
      `--service-account-signing-key-file=${pki("sa.key")}`,
      "--service-account-issuer=https://kubernetes.default.svc.cluster.local",
      "--service-cluster-ip-range=10.0.0.0/24",
      "--v=2",
    ],
    apiLog,
  );
  const stop = async () => {
    await terminate(apiserver);
    await terminate(etcd);
  };
  const client = {
    base: `https://127.0.0.1:${apiPort}`,
    token: referenceAdminToken(kit),
    ca: readFileSync(pki("ca.crt"), "utf8"),
    maxSockets: 1,
  };
  try {
    await waitReady("kube-apiserver", client, apiserver, apiLog);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    name: "kube-apiserver",
    client,
    pids: [apiserver.pid ?? 0, etcd.pid ?? 0],
    eventLoopMetrics: false,
    stop,
  };
}

/** The admin's token in the reference's tokens.csv (token,user,uid,"groups"). */
export function referenceAdminToken(kit: ReferenceKit): string {
  const line = readFileSync(join(kit.pki, "tokens.csv"), "utf8")
    .split("\n")
    .find((l) => l.split(",")[1] === "admin");
  if (line === undefined) throw new Error(`no admin token in ${join(kit.pki, "tokens.csv")}`);
  return line.split(",")[0] ?? "";
}

/** A token file with one system:masters admin, for kapi when there is no reference to share one with. */
export function writeAdminTokenFile(workDir: string, token: string): string {
  mkdirSync(workDir, { recursive: true });
  const file = join(workDir, "tokens.csv");
  writeFileSync(file, `${token},admin,admin-uid,"system:masters"\n`, { mode: 0o600 });
  return file;
}

export interface CeilingFiles {
  certFile: string;
  keyFile: string;
  ca: string;
}

export async function startCeiling(repo: string, workDir: string, files: CeilingFiles): Promise<ServerUnderTest> {
  const port = await freePort();
  const logFile = join(workDir, "ceiling.log");
  const child = launch(
    process.execPath,
    ["--import", "tsx", join(repo, "bench/compare/ceiling-server.ts"), String(port), files.certFile, files.keyFile],
    logFile,
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("ready")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`the ceiling server exited (${code}); see ${logFile}`)));
  });
  return {
    name: "ceiling",
    client: { base: `https://127.0.0.1:${port}`, token: "", ca: files.ca, maxSockets: 1 },
    pids: [child.pid ?? 0],
    eventLoopMetrics: false,
    stop: () => terminate(child),
  };
}
