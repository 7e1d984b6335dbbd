// `kapi serve --workers 2` as a real process tree: a primary owning the SQLite store and two cluster workers
// serving the port, every connection its own so the primary hands them to both.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../../e2e/free-port.js";

const root = join(import.meta.dirname, "../../..");

interface Answer {
  status: number;
  body: string;
}

/** One request on a connection of its own. */
function send(port: number, token: string, method: string, path: string, body?: unknown): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        method,
        path,
        agent: false,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        timeout: 20_000,
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on("error", reject);
    req.on("timeout", () => req.destroy(new Error(`${method} ${path}: no answer`)));
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

function workerPids(primary: number): number[] {
  try {
    return (
      execFileSync("ps", ["-o", "pid=,args=", "--ppid", String(primary)], { encoding: "utf8" })
        .split("\n")
        // tsx's esbuild service is a child too.
        .filter((line) => line.includes("kapi.js"))
        .map((line) => Number.parseInt(line.trim(), 10))
    );
  } catch {
    return [];
  }
}

async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("kapi serve --workers 2", () => {
  const dir = mkdtempSync(join(tmpdir(), "kapi-workers-"));
  let child: ChildProcess | undefined;
  afterAll(() => {
    child?.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  });

  it("serves one store from its workers, replaces a killed worker, and shuts down whole", async () => {
    const port = await freePort();
    const dataDir = join(dir, "data");
    const primary = spawn(
      process.execPath,
      [
        join(root, "bin/kapi.js"),
        "serve",
        "--workers",
        "2",
        "--plain-http",
        "--data-dir",
        dataDir,
        "--secure-port",
        String(port),
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    child = primary;
    let out = "";
    await new Promise<void>((resolve, reject) => {
      primary.stdout?.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes("admin kubeconfig:")) resolve();
      });
      primary.stderr?.on("data", (chunk: Buffer) => {
        out += chunk.toString();
      });
      primary.once("exit", (code) => reject(new Error(`kapi serve exited with ${code}: ${out}`)));
    });
    expect(out).toContain(`kapi serving on http://127.0.0.1:${port}`);
    const kubeconfig = readFileSync(join(dataDir, "admin.kubeconfig"), "utf8");
    const token = /token: (\S+)/.exec(kubeconfig)?.[1] ?? "";
    const pid = primary.pid as number;
    const first = workerPids(pid);
    expect(first).toHaveLength(2);

    const path = "/api/v1/namespaces/default/configmaps";
    const created = await send(port, token, "POST", path, {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "shared" },
    });
    expect(created.status).toBe(201);
    const version = (JSON.parse(created.body) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
    // Connections alternate between the workers: each one reads the write at its resourceVersion.
    for (let i = 0; i < 6; i++) {
      const read = await send(port, token, "GET", `${path}/shared`);
      expect(read.status).toBe(200);
      expect((JSON.parse(read.body) as { metadata: { resourceVersion: string } }).metadata.resourceVersion).toBe(
        version,
      );
    }

    process.kill(first[0] as number, "SIGKILL");
    // The other worker goes on serving while the primary forks a replacement. A connection the primary
    // handed to the killed worker as it died is reset, as one to a kube-apiserver replica going away: the
    // client connects again.
    const again = async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await send(port, token, "GET", `${path}/shared`);
        } catch (error) {
          if (attempt === 3) throw error;
        }
      }
    };
    for (let i = 0; i < 4; i++) expect((await again()).status).toBe(200);
    const replaced = await until("a replacement worker", () => {
      const now = workerPids(pid);
      return now.length === 2 && !now.includes(first[0] as number) ? now : undefined;
    });
    expect(replaced).toContain(first[1]);
    const exited = new Promise<number | null>((resolve) => primary.once("exit", (code) => resolve(code)));
    primary.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(workerPids(pid)).toEqual([]);
  }, 300_000);
});
