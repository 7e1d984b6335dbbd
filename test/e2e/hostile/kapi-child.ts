// `kapi serve` as a child process, so that a request that crashes the server is seen as an exit rather than
// taking the test runner with it.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../free-port.js";

const root = join(import.meta.dirname, "../../..");
/** How much of the child's output is kept to explain an exit. */
const keptOutputChars = 20_000;

export class KapiChild {
  private output = "";
  private exit: string | undefined;
  private readonly exited: Promise<void>;

  private constructor(
    private readonly child: ChildProcess,
    private readonly dataDir: string,
  ) {
    const keep = (chunk: Buffer) => {
      this.output = (this.output + chunk.toString()).slice(-keptOutputChars);
    };
    child.stdout?.on("data", keep);
    child.stderr?.on("data", keep);
    this.exited = new Promise((resolve) => {
      child.once("exit", (code, signal) => {
        this.exit = signal === null ? `exited with code ${code}` : `killed by ${signal}`;
        resolve();
      });
    });
  }

  /** Starts `kapi serve` on a memory store and a free port; resolves once it serves. */
  static async start(): Promise<KapiChild> {
    const dataDir = mkdtempSync(join(tmpdir(), "kapi-hostile-"));
    const port = await freePort();
    const child = spawn(
      process.execPath,
      [
        // The fuzz bounds what the server keeps; without a cap, V8 on a busy machine lets garbage pile up
        // past the bound before collecting it. A server that truly keeps more dies, which the fuzz reports.
        "--max-old-space-size=640",
        "--import",
        "tsx",
        join(root, "runtime/cli/main.ts"),
        "serve",
        "--storage",
        "memory",
        "--secure-port",
        String(port),
        "--data-dir",
        dataDir,
      ],
      { cwd: root, stdio: ["ignore", "pipe", "pipe"] },
    );
    const kapi = new KapiChild(child, dataDir);
    await new Promise<void>((resolve, reject) => {
      const onData = () => {
        if (kapi.output.includes("admin kubeconfig:")) {
          child.stdout?.off("data", onData);
          resolve();
        }
      };
      child.stdout?.on("data", onData);
      kapi.exited.then(() => reject(new Error(`kapi serve ${kapi.exit} before serving:\n${kapi.output}`)));
    });
    return kapi;
  }

  get pid(): number {
    return this.child.pid ?? 0;
  }

  get kubeconfigPath(): string {
    return join(this.dataDir, "admin.kubeconfig");
  }

  /** Undefined while it runs; how it ended otherwise. */
  get exitStatus(): string | undefined {
    return this.exit;
  }

  /** The last lines it printed. */
  get recentOutput(): string {
    return this.output;
  }

  /** Resident memory in bytes, from /proc (Linux); undefined elsewhere or once it has gone. */
  rssBytes(): number | undefined {
    try {
      const status = readFileSync(`/proc/${this.pid}/status`, "utf8");
      const match = /^VmRSS:\s+(\d+) kB$/m.exec(status);
      return match ? Number(match[1]) * 1024 : undefined;
    } catch {
      return undefined;
    }
  }

  /** CPU time it has used (user and system), from /proc; undefined elsewhere or once it has gone. */
  cpuSeconds(): number | undefined {
    try {
      // The fields after the command name, which may itself hold spaces: utime and stime are the 12th and 13th.
      const fields = readFileSync(`/proc/${this.pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
      return (Number(fields[11]) + Number(fields[12])) / 100;
    } catch {
      return undefined;
    }
  }

  async stop(): Promise<void> {
    if (this.exit === undefined) {
      this.child.kill("SIGTERM");
      const forced = setTimeout(() => this.child.kill("SIGKILL"), 5000);
      await this.exited;
      clearTimeout(forced);
    }
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}
