// A started server and a kubectl bound to it through a kubeconfig in a temporary directory: what every
// kubectl end-to-end test starts from.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { type RunningServer, type StartServerOptions, startServer } from "../../runtime/index.js";

export const kubectlPath = "/usr/bin/kubectl";
export const haveKubectl = existsSync(kubectlPath);
const run = promisify(execFile);

export interface KubectlSession {
  server: RunningServer;
  dir: string;
  kubeconfig: string;
  /** The full argument list for kubectl bound to the session, for callers that spawn it themselves. */
  args(...rest: string[]): string[];
  /** kubectl's stdout; a failing command rejects. */
  kubectl(...args: string[]): Promise<string>;
  /** kubectl with extra environment variables (EDITOR, KUBECTL_*). */
  kubectlWith(env: Record<string, string>, ...args: string[]): Promise<{ stdout: string; stderr: string }>;
  /** kubectl's stderr for a command that must fail. */
  kubectlError(...args: string[]): Promise<string>;
  /** Writes `text` to a file in the session's directory and returns its path. */
  file(name: string, text: string): string;
  close(): Promise<void>;
}

export async function startKubectlSession(options: StartServerOptions = {}): Promise<KubectlSession> {
  const server = await startServer(options);
  const dir = mkdtempSync(join(tmpdir(), "kapi-e2e-"));
  const kubeconfig = join(dir, "admin.kubeconfig");
  writeFileSync(kubeconfig, server.kubeconfig);
  const argv = (rest: string[]) => ["--kubeconfig", kubeconfig, "--cache-dir", join(dir, "cache"), ...rest];
  const kubectlWith = (env: Record<string, string>, ...rest: string[]) =>
    run(kubectlPath, argv(rest), { env: { ...process.env, ...env } });
  return {
    server,
    dir,
    kubeconfig,
    args: (...rest) => argv(rest),
    kubectl: async (...rest) => (await run(kubectlPath, argv(rest))).stdout,
    kubectlWith,
    kubectlError: async (...rest) => {
      try {
        await run(kubectlPath, argv(rest));
      } catch (error) {
        return (error as { stderr: string }).stderr;
      }
      throw new Error(`kubectl ${rest.join(" ")} succeeded`);
    },
    file: (name, text) => {
      const path = join(dir, name);
      writeFileSync(path, text);
      return path;
    },
    close: async () => {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
