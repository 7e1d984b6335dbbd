// `kapi serve` as an operator runs it: files holding secrets are owner-only, anonymous uploads cost no memory
// (the body is read after authorization), and SIGTERM under load answers every request in flight and ends
// watches cleanly before exiting 0.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import type { IncomingMessage } from "node:http";
import { type Agent, request } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "./free-port.js";

const root = join(import.meta.dirname, "../..");
const token = "hardening-admin-token";

interface Served {
  child: ChildProcess;
  port: number;
  output: () => string;
}

async function serve(dataDir: string, extra: string[] = []): Promise<Served> {
  const port = await freePort();
  const tokens = join(dataDir, "..", "tokens.csv");
  writeFileSync(tokens, `${token},hardening-admin,1,system:masters\n`);
  const child = spawn(
    process.execPath,
    [
      join(root, "bin/kapi.js"),
      "serve",
      "--data-dir",
      dataDir,
      "--secure-port",
      String(port),
      "--token-auth-file",
      tokens,
      ...extra,
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let out = "";
  return new Promise((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("admin kubeconfig:")) resolve({ child, port, output: () => out });
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.once("exit", (code) => reject(new Error(`kapi serve exited with ${code}: ${out}`)));
  });
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once("exit", (code) => resolve(code));
  });
}

interface Outcome {
  status?: number;
  error?: string;
  /** Whether the connection was established (TLS handshake done) before the error. */
  connected?: boolean;
}

function call(
  port: number,
  method: string,
  path: string,
  options: { body?: string; auth?: boolean; agent?: Agent } = {},
): Promise<Outcome> {
  return new Promise((resolve) => {
    let connected = false;
    const req = request(
      {
        host: "127.0.0.1",
        port,
        method,
        path,
        rejectUnauthorized: false,
        agent: options.agent ?? false,
        headers: {
          ...(options.auth === false ? {} : { Authorization: `Bearer ${token}` }),
          ...(options.body === undefined ? {} : { "Content-Type": "application/json" }),
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0 }));
        res.on("error", (error) => resolve({ error: (error as NodeJS.ErrnoException).code ?? error.message }));
      },
    );
    req.on("socket", (socket) => socket.once("secureConnect", () => (connected = true)));
    req.on("error", (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message, connected }));
    req.end(options.body);
  });
}

function rssBytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((l) => l.startsWith("VmRSS:"));
  return Number(/(\d+)/.exec(line ?? "")?.[1] ?? 0) * 1024;
}

const mode = (path: string) => statSync(path).mode & 0o777;

describe("kapi serve under hostile and ending load", () => {
  const dir = mkdtempSync(join(tmpdir(), "kapi-hardening-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("creates its store, audit log, keys and kubeconfig owner-only", async () => {
    const dataDir = join(dir, "modes");
    const audit = join(dir, "audit.log");
    const served = await serve(dataDir, ["--audit-log-path", audit]);
    try {
      const created = await call(served.port, "POST", "/api/v1/namespaces/default/secrets", {
        body: JSON.stringify({ metadata: { name: "s" }, stringData: { password: "hunter2" } }),
      });
      expect(created.status).toBe(201);
      expect(mode(dataDir)).toBe(0o700);
      expect(mode(join(dataDir, "pki"))).toBe(0o700);
      for (const file of [
        "kapi.db",
        "kapi.db-wal",
        "admin.kubeconfig",
        "pki/ca.key",
        "pki/apiserver.key",
        "pki/sa.key",
      ]) {
        expect([file, mode(join(dataDir, file))]).toEqual([file, 0o600]);
      }
      expect(mode(audit)).toBe(0o600);
    } finally {
      served.child.kill("SIGTERM");
      await exited(served.child);
    }
  });

  it("keeps memory flat while anonymous clients upload 3 MiB bodies", async () => {
    const served = await serve(join(dir, "uploads"), ["--storage", "memory"]);
    try {
      const pid = served.child.pid as number;
      const body = "x".repeat(3 * 1024 * 1024 - 16);
      const before = rssBytes(pid);
      let peak = before;
      const sampler = setInterval(() => {
        peak = Math.max(peak, rssBytes(pid));
      }, 5);
      const outcomes: Outcome[] = [];
      for (let round = 0; round < 10; round++) {
        const batch = Array.from({ length: 20 }, () =>
          call(served.port, "POST", "/api/v1/namespaces/default/configmaps", { body, auth: false }),
        );
        outcomes.push(...(await Promise.all(batch)));
      }
      clearInterval(sampler);
      // The answer is 403 before the body is read; a client still writing when the connection closes may
      // see the reset instead, as with kube-apiserver.
      expect(outcomes.filter((o) => o.status === 403).length).toBeGreaterThan(0);
      expect(outcomes.filter((o) => o.status !== 403 && !["ECONNRESET", "EPIPE"].includes(o.error ?? ""))).toEqual([]);
      // 200 uploads, 20 at a time: buffered they would hold 60 MiB at once and grow the heap for good.
      expect(peak - before).toBeLessThan(40 * 1024 * 1024);
    } finally {
      served.child.kill("SIGTERM");
      await exited(served.child);
    }
  });

  it("answers every request in flight, ends watches cleanly and exits 0 on SIGTERM", async () => {
    const served = await serve(join(dir, "shutdown"));
    const { port } = served;
    const watchEnded = new Promise<string>((resolve) => {
      const req = request(
        {
          host: "127.0.0.1",
          port,
          path: "/api/v1/namespaces/default/configmaps?watch=true",
          rejectUnauthorized: false,
          agent: false,
          headers: { Authorization: `Bearer ${token}` },
        },
        (res: IncomingMessage) => {
          res.resume();
          res.on("end", () => resolve("end"));
          res.on("aborted", () => resolve("aborted"));
          res.on("error", (error: Error) => resolve(`error ${error.message}`));
        },
      );
      req.on("error", (error) => resolve(`error ${error.message}`));
      req.end();
    });
    const outcomes: Outcome[] = [];
    let stopped = false;
    const worker = async (w: number) => {
      for (let i = 0; !stopped; i++) {
        const name = `w${w}-${i}`;
        const outcome =
          i % 2 === 0
            ? await call(port, "POST", "/api/v1/namespaces/default/configmaps", {
                body: JSON.stringify({ metadata: { name }, data: { payload: "y".repeat(2048) } }),
              })
            : await call(port, "GET", "/api/v1/namespaces/default/configmaps?limit=50");
        outcomes.push(outcome);
        // Once the listener is closed, connections are refused: the load is over.
        if (outcome.error === "ECONNREFUSED") return;
      }
    };
    const workers = Array.from({ length: 16 }, (_, w) => worker(w));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    served.child.kill("SIGTERM");
    const code = await exited(served.child);
    stopped = true;
    await Promise.all(workers);
    expect(code).toBe(0);
    expect(await watchEnded).toBe("end");
    const answered = outcomes.filter((o) => o.status !== undefined);
    // A connection still in the kernel's accept queue when the listener closes is reset before its TLS
    // handshake, as it is with kube-apiserver: it never carried a request. Every established one is answered.
    const failures = outcomes.filter((o) => o.error !== undefined && o.connected === true);
    expect(answered.length).toBeGreaterThan(50);
    expect(failures).toEqual([]);
    expect(answered.filter((o) => (o.status as number) >= 500 && o.status !== 503)).toEqual([]);
    expect(served.output()).toContain("SIGTERM received, shutting down");
  });
});
