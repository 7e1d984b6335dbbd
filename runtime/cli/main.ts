// The `kapi` command. Verbs arrive with the issues that build them; unknown verbs fail with usage.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

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
    --controllers LIST   kube-controller-manager's selection (*, name, -name; default *)
    --runtime-config L   group/versions to serve or not (samples.kapi.dev/v1=true, api/alpha=false)
    --max-requests-inflight N           read-only requests at once before 429 (default 400, 0 unlimited)
    --max-mutating-requests-inflight N  mutating requests at once before 429 (default 200, 0 unlimited)
    --request-timeout D       504 for requests that are not long-running after D (default 1m0s)
    --min-request-timeout N   watches without timeoutSeconds last N to 2N seconds (default 1800)
    --shutdown-delay-duration D  keep serving D after /readyz fails on SIGTERM (default 0s)
    --v N                     4 or more: debug lines on stderr
    --allow-privileged        pods may have privileged containers (default false)
    authentication (docs/authentication.md):
      --anonymous-auth, --client-ca-file, --token-auth-file, --enable-bootstrap-token-auth,
      --authentication-config, --requestheader-client-ca-file, --requestheader-allowed-names,
      --requestheader-{username,uid,group}-headers, --requestheader-extra-headers-prefix,
      --authentication-token-webhook-{config-file,version,cache-ttl}, --api-audiences,
      --service-account-{issuer,key-file,signing-key-file,max-token-expiration,
      extend-token-expiration,lookup,jwks-uri}
    authorization (docs/authorization.md; default --authorization-mode=Node,RBAC):
      --authorization-mode, --authorization-config, --authorization-policy-file,
      --authorization-webhook-{config-file,version,cache-authorized-ttl,cache-unauthorized-ttl}
  new-group G/V --kind K    write a starter schemas/<group>/<version>.yaml (docs/new-api-group.md)
    --namespaced|--cluster  the kind's scope (default namespaced)
    --schemas-dir DIR       where schemas live (default ./schemas)
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
  const { parseServeFlags } = await import("./serve-flags.js");
  const options = parseServeFlags(args);
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
  console.log(`kapi serving on ${server.url}`);
  console.log(`admin kubeconfig: ${kubeconfigPath}`);
  console.log(`try: kubectl --kubeconfig ${kubeconfigPath} api-resources`);
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
  case "new-group":
    runVerb(() => import("./scaffold-command.js").then((m) => m.runScaffoldCommand), args);
    break;
  case "sdk":
    runVerb(() => import("./sdk-command.js").then((m) => m.runSdkCommand), args);
    break;
  default:
    console.error(usage);
    process.exitCode = command === undefined || command === "help" ? 0 : 2;
}
