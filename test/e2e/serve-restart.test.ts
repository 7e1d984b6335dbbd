// `kapi serve` on its default SQLite store keeps every acknowledged write across a restart.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "./free-port.js";

const kubectlPath = "/usr/bin/kubectl";
const run = promisify(execFile);
const root = join(import.meta.dirname, "../..");

/** Starts `kapi serve` and resolves once it prints where its kubeconfig is. */
function serve(dataDir: string, port: number): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [join(root, "bin/kapi.js"), "serve", "--data-dir", dataDir, "--secure-port", String(port)],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("admin kubeconfig:")) resolve(child);
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.once("exit", (code) => reject(new Error(`kapi serve exited with ${code}: ${out}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

describe.skipIf(!existsSync(kubectlPath))("kapi serve restart", () => {
  const dir = mkdtempSync(join(tmpdir(), "kapi-restart-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("serves after a restart everything written before it", async () => {
    const port = await freePort();
    const dataDir = join(dir, "data");
    const kubeconfig = join(dataDir, "admin.kubeconfig");
    const kubectl = async (...args: string[]) =>
      (await run(kubectlPath, ["--kubeconfig", kubeconfig, "--cache-dir", join(dir, "cache"), ...args])).stdout;
    const manifest = join(dir, "objects.yaml");
    writeFileSync(
      manifest,
      [
        "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: kept\n",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: kept\ndata:\n  mode: durable\n",
      ].join("---\n"),
    );

    const first = await serve(dataDir, port);
    await kubectl("create", "-f", manifest);
    // A service account token outlives the restart: the signing key is kept in the cert directory.
    const token = (await kubectl("create", "token", "default", "-n", "kept")).trim();
    const before = JSON.parse(await kubectl("get", "configmap", "settings", "-n", "kept", "-o", "json")) as {
      metadata: { uid: string; resourceVersion: string };
    };
    await stop(first);

    const second = await serve(dataDir, port);
    try {
      const after = JSON.parse(await kubectl("get", "configmap", "settings", "-n", "kept", "-o", "json")) as {
        data: Record<string, string>;
        metadata: { uid: string; resourceVersion: string };
      };
      expect(after.data).toEqual({ mode: "durable" });
      expect(after.metadata.uid).toBe(before.metadata.uid);
      expect(after.metadata.resourceVersion).toBe(before.metadata.resourceVersion);
      expect(await kubectl("get", "namespace", "kept", "-o", "jsonpath={.status.phase}")).toBe("Active");
      // The same cluster with the token as the only credential (a client certificate would win over it).
      const tokenConfig = join(dir, "token.kubeconfig");
      const admin = readFileSync(kubeconfig, "utf8");
      writeFileSync(
        tokenConfig,
        admin.replace(/ {4}client-certificate-data: \S+\n {4}client-key-data: \S+\n/, `    token: ${token}\n`),
      );
      const whoami = await run(kubectlPath, [
        "--kubeconfig",
        tokenConfig,
        "--cache-dir",
        join(dir, "cache"),
        "auth",
        "whoami",
        "-o",
        "jsonpath={.status.userInfo.username}",
      ]);
      expect(whoami.stdout).toBe("system:serviceaccount:kept:default");
    } finally {
      await stop(second);
    }
  }, 60_000);
});
