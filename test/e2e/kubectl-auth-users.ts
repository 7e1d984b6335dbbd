// kubectl as users other than the admin: a kubeconfig with the admin's cluster (server and CA) and another
// user's credentials, and a kubectl bound to it whose failures are answers (exit code, stderr), not throws.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { parse, stringify } from "yaml";
import { type KubectlSession, kubectlPath } from "./kubectl-session.js";

const run = promisify(execFile);

export interface KubectlResult {
  stdout: string;
  stderr: string;
  code: number;
}

export interface KubectlUser {
  /** The kubeconfig's path, for clients other than kubectl. */
  kubeconfig: string;
  /** kubectl's output and exit code, whether it succeeded or not. */
  run(...args: string[]): Promise<KubectlResult>;
  /** kubectl's stdout; a failing command rejects. */
  kubectl(...args: string[]): Promise<string>;
  /** kubectl's stderr for a command that must fail. */
  kubectlError(...args: string[]): Promise<string>;
}

/** The admin kubeconfig with its user's credentials replaced by `user` (kubeconfig `user` fields). */
function userKubeconfig(adminKubeconfig: string, user: Record<string, string>): string {
  const config = parse(adminKubeconfig) as { users: { name: string; user: Record<string, string> }[] };
  for (const entry of config.users) entry.user = user;
  return stringify(config);
}

/** kubectl bound to `kubeconfig` (the session's own, for the admin), sharing the session's discovery cache. */
export function kubectlFor(session: KubectlSession, kubeconfig: string): KubectlUser {
  const argv = (rest: string[]) => ["--kubeconfig", kubeconfig, "--cache-dir", join(session.dir, "cache"), ...rest];
  const runArgs = async (...rest: string[]): Promise<KubectlResult> => {
    try {
      const running = run(kubectlPath, argv(rest));
      // Over TLS, kubectl prompts for a username when the kubeconfig has no credentials: EOF, not a hang.
      running.child.stdin?.end();
      const { stdout, stderr } = await running;
      return { stdout, stderr, code: 0 };
    } catch (error) {
      const failed = error as { stdout?: string; stderr?: string; code?: number };
      if (typeof failed.code !== "number") throw error;
      return { stdout: failed.stdout ?? "", stderr: failed.stderr ?? "", code: failed.code };
    }
  };
  return {
    kubeconfig,
    run: runArgs,
    kubectl: async (...rest) => {
      const result = await runArgs(...rest);
      if (result.code !== 0) throw new Error(`kubectl ${rest.join(" ")} failed: ${result.stderr}`);
      return result.stdout;
    },
    kubectlError: async (...rest) => {
      const result = await runArgs(...rest);
      if (result.code === 0) throw new Error(`kubectl ${rest.join(" ")} succeeded`);
      return result.stderr;
    },
  };
}

/** kubectl as `user`, through a kubeconfig named after it in the session's directory. */
export function kubectlUser(session: KubectlSession, name: string, user: Record<string, string>): KubectlUser {
  return kubectlFor(session, session.file(`${name}.kubeconfig`, userKubeconfig(session.server.kubeconfig, user)));
}

/** A table as kubectl's tab writer prints it: each column but the last padded to its widest cell plus three. */
export function kubectlTable(rows: readonly (readonly string[])[]): string {
  const columns = Math.max(...rows.map((row) => row.length));
  const widths = Array.from(
    { length: columns - 1 },
    (_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0)) + 3,
  );
  return rows.map((row) => `${row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join("")}\n`).join("");
}

/** `kubectl auth whoami`'s table of attributes. */
export function whoamiTable(rows: [string, string][]): string {
  return kubectlTable([["ATTRIBUTE", "VALUE"], ...rows]);
}
