// The `kapi` command. Verbs arrive with the issues that build them; unknown verbs fail with usage.
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");

const usage = `usage: kapi <command>

commands:
  generate         regenerate generated/ from schemas/ (npm run generate)
  generate --check fail if generated/ is out of date
  serve            run the API server
    --secure-port N      port to serve on (default 6443)
    --bind-address IP    address to listen on (default 127.0.0.1)
    --data-dir DIR       where admin.kubeconfig and state live (default ./kapi-data)
    --cert-dir DIR       where the CA and serving certificate are kept (default <data-dir>/pki)
    --plain-http         serve HTTP instead of HTTPS
    --storage KIND       sqlite (default, <data-dir>/kapi.db) or memory
    --audit-log-path F   append one audit.k8s.io/v1 Event per request (Metadata level) to F
`;

function runGenerator(args: string[]): number {
  const result = spawnSync(process.execPath, ["--import", "tsx", join(root, "generator/main.ts"), ...args], {
    stdio: "inherit",
  });
  return result.status ?? 1;
}

async function runServe(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      "secure-port": { type: "string", default: "6443" },
      "bind-address": { type: "string", default: "127.0.0.1" },
      "data-dir": { type: "string", default: "./kapi-data" },
      "cert-dir": { type: "string" },
      "plain-http": { type: "boolean", default: false },
      storage: { type: "string", default: "sqlite" },
      "audit-log-path": { type: "string" },
    },
  });
  const storage = values.storage;
  if (storage !== "sqlite" && storage !== "memory") throw new Error(`invalid --storage ${storage}: sqlite or memory`);
  const port = Number(values["secure-port"]);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`invalid --secure-port ${values["secure-port"]}`);
  // Loaded here so that `kapi generate` does not pay for the server's modules.
  const { serve } = await import("../server/serve.js");
  const { server, kubeconfigPath } = await serve({
    securePort: port,
    bindAddress: values["bind-address"],
    dataDir: values["data-dir"],
    ...(values["cert-dir"] === undefined ? {} : { certDir: values["cert-dir"] }),
    plainHttp: values["plain-http"],
    storage,
    ...(values["audit-log-path"] === undefined ? {} : { auditLogPath: values["audit-log-path"] }),
  });
  console.log(`kapi serving on ${server.url}`);
  console.log(`admin kubeconfig: ${kubeconfigPath}`);
  console.log(`try: kubectl --kubeconfig ${kubeconfigPath} api-resources`);
  const stop = () => {
    server.close().then(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

const [command, ...args] = process.argv.slice(2);
switch (command) {
  case "generate":
    process.exitCode = runGenerator(args);
    break;
  case "serve":
    runServe(args).catch((error: unknown) => {
      console.error(`kapi serve: ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = 1;
    });
    break;
  default:
    console.error(usage);
    process.exitCode = command === undefined || command === "help" ? 0 : 2;
}
