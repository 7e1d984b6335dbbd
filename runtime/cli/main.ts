// The `kapi` command. Verbs arrive with the issues that build them; unknown verbs fail with usage.
import { spawnSync } from "node:child_process";
import cluster from "node:cluster";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ServeOptions } from "../server/serve.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");

const usage = `usage: kapi <command>

commands:
  generate         regenerate generated/ from schemas/ (npm run generate)
  generate --check fail if generated/ is out of date
  serve            run the API server as kube-apiserver (kapi serve --help lists its flags:
                   kube-apiserver v1.36's, in its sections, and kapi's own)
  new-group G/V --kind K    write a starter schemas/<group>/<version>.yaml (docs/new-api-group.md)
    --namespaced|--cluster  the kind's scope (default namespaced)
    --schemas-dir DIR       where schemas live (default ./schemas)
  config default|validate|convert FILE   read a configuration file as kube-apiserver does
    -o yaml|json              output format of default and convert (default yaml)
    --output-version G/V      the version convert writes (docs/configuration-files.md)
  sdk --crd FILE... --out DIR   TypeScript types and typed clients from CustomResourceDefinition manifests
    --client-module M     module exporting ApiClient and ResourceClient (default @kapi/client)
    --meta-module M       module exporting the ObjectMeta and ListMeta types (default @kapi/client)
`;

/** Runs a verb's module, loaded only when asked for, and exits with its code. */
function runVerb(load: () => Promise<(args: string[]) => Promise<number>>, args: string[]): void {
  load()
    .then((run) => run(args))
    .then((code) => {
      process.exitCode = code;
    })
    .catch((error: unknown) => {
      console.error(`kapi: ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = 1;
    });
}

function runGenerator(args: string[]): number {
  // The generator and its schemas live in a checkout of kapi; the installed package has neither.
  if (!existsSync(join(root, "generator/run-generator.ts"))) {
    console.error("kapi generate: no generator here; it runs in a checkout of the kapi repository");
    return 1;
  }
  const result = spawnSync(process.execPath, ["--import", "tsx", join(root, "generator/run-generator.ts"), ...args], {
    stdio: "inherit",
  });
  return result.status ?? 1;
}

async function runServe(args: string[]): Promise<void> {
  // Loaded here so that `kapi generate` does not pay for the server's modules.
  const { honouredFlags, parseServeFlags } = await import("./serve-flags.js");
  const { readServeCommandLine } = await import("./serve-command-line.js");
  let options: ServeOptions;
  try {
    const commandLine = readServeCommandLine(args, honouredFlags);
    if (commandLine.print !== undefined) {
      process.stdout.write(commandLine.print);
      return;
    }
    options = parseServeFlags(commandLine.args);
    for (const line of [...commandLine.notices, ...(options.warnings ?? [])]) console.error(line);
  } catch (error) {
    // The command line is refused as kube-apiserver's cobra refuses it: `Error: <why>`, exit 1.
    console.error(`Error: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
    return;
  }
  const { serve } = await import("../server/serve.js");
  // A graceful shutdown on the first signal (in-flight requests answered, watches ended, store closed);
  // a second signal while it runs exits at once, as kube-apiserver does. The handlers are in place before
  // the server answers /readyz, so a signal right after it is ready still shuts it down gracefully.
  let close: (() => Promise<void>) | undefined;
  let stopping = false;
  const shutDown = (closeServer: () => Promise<void>) =>
    closeServer().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(`kapi: shutdown failed: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(1);
      },
    );
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    console.log(`kapi: ${signal} received, shutting down`);
    if (close !== undefined) shutDown(close);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  const { server, kubeconfigPath } = await serve(options);
  close = () => server.close();
  if (stopping) {
    shutDown(close);
    return;
  }
  // With `--workers`, the primary alone says where the server is.
  if (cluster.isWorker) return;
  console.log(`kapi serving on ${server.url}`);
  console.log(`admin kubeconfig: ${kubeconfigPath}`);
  console.log(`try: kubectl --kubeconfig ${kubeconfigPath} api-resources`);
}

const [command, ...args] = process.argv.slice(2);
switch (command) {
  case "help":
  case "--help":
  case "-h":
    console.log(usage);
    break;
  case "generate":
    process.exitCode = runGenerator(args);
    break;
  case "serve":
    runServe(args).catch((error: unknown) => {
      console.error(`kapi serve: ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = 1;
    });
    break;
  case "new-group":
    runVerb(() => import("./scaffold-command.js").then((m) => m.runScaffoldCommand), args);
    break;
  case "sdk":
    runVerb(() => import("./sdk-command.js").then((m) => m.runSdkCommand), args);
    break;
  case "config":
    runVerb(() => import("./config-command.js").then((m) => m.runConfigCommand), args);
    break;
  default:
    console.error(usage);
    process.exitCode = command === undefined ? 0 : 2;
}
