// An exec credential plugin for the client tests: a node script in a temp dir that counts its runs, keeps
// what it was given (KUBERNETES_EXEC_INFO, args, stdin) in `input-<n>.json`, and prints an ExecCredential
// as PLUGIN_MODE says: `token` (token-<n>, or what stdin holds), `cert` (client.crt/client.key next to it),
// `fail` (exit code 3), `cert-only`, `no-status`. PLUGIN_TTL_MS sets expirationTimestamp that far ahead;
// PLUGIN_API_VERSION overrides the apiVersion it answers with.
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const script = `
const fs = require("node:fs");
const dir = __dirname;
const runsFile = dir + "/runs";
const run = Number(fs.existsSync(runsFile) ? fs.readFileSync(runsFile, "utf8") : "0") + 1;
fs.writeFileSync(runsFile, String(run));
let stdin = "";
try { stdin = fs.readFileSync(0, "utf8"); } catch {}
const info = process.env.KUBERNETES_EXEC_INFO;
fs.writeFileSync(dir + "/input-" + run + ".json", JSON.stringify({
  info: info === undefined ? null : JSON.parse(info),
  args: process.argv.slice(2),
  extra: process.env.PLUGIN_EXTRA ?? null,
  stdin,
}));
const mode = process.env.PLUGIN_MODE ?? "token";
if (mode === "fail") process.exit(3);
const status = {};
if (mode === "cert" || mode === "cert-only") {
  status.clientCertificateData = fs.readFileSync(dir + "/client.crt", "utf8");
  if (mode === "cert") status.clientKeyData = fs.readFileSync(dir + "/client.key", "utf8");
} else {
  status.token = stdin.trim() || "token-" + run;
}
if (process.env.PLUGIN_TTL_MS) {
  status.expirationTimestamp = new Date(Date.now() + Number(process.env.PLUGIN_TTL_MS)).toISOString();
}
const apiVersion = process.env.PLUGIN_API_VERSION ?? JSON.parse(info).apiVersion;
const credential = { apiVersion, kind: "ExecCredential" };
if (mode !== "no-status") credential.status = status;
process.stdout.write(JSON.stringify(credential));
`;

export interface ExecPluginFixture {
  dir: string;
  /** The script's path, executable. */
  command: string;
  runs(): number;
  /** What run `n` (from 1) was given. */
  input(n: number): { info: unknown; args: string[]; extra: string | null; stdin: string };
  remove(): void;
}

export function writeExecPlugin(files: Record<string, string> = {}): ExecPluginFixture {
  const dir = mkdtempSync(join(tmpdir(), "kapi-exec-plugin-"));
  const command = join(dir, "plugin.js");
  writeFileSync(command, `#!${process.execPath}\n${script}`);
  chmodSync(command, 0o755);
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return {
    dir,
    command,
    runs: () => {
      const file = join(dir, "runs");
      return existsSync(file) ? Number(readFileSync(file, "utf8")) : 0;
    },
    input: (n) => JSON.parse(readFileSync(join(dir, `input-${n}.json`), "utf8")),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
