// The @kapi/client npm package as a user gets it: built by scripts/build-sdk.ts, packed by `npm pack`,
// installed from the tarball into a fresh ES module project and a fresh CommonJS project, consumer code
// (built-in clients and a client `kapi sdk --crd` wrote) typechecked as a consumer's TypeScript resolves it
// (wrong calls must fail to compile) and run with node against a kapi server.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { runSdkCommand } from "../../runtime/cli/sdk-command.js";
import { type RunningServer, startServer } from "../../runtime/index.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const bin = (name: string) => join(root, "node_modules/.bin", name);
const execFileAsync = promisify(execFile);

/** stdout of a command; a failure rejects with everything it printed (tsc reports errors on stdout). */
async function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<string> {
  try {
    const { stdout } = await execFileAsync(command, args, { cwd, env: { ...process.env, ...env } });
    return stdout;
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(" ")} failed:\n${stdout}${stderr}`);
  }
}

/** The consumer: the same TypeScript for both projects; the project's module format decides how it loads. */
const consumer = `import {
  ApiClient,
  ApiError,
  type appsV1,
  type Clientset,
  type coreV1,
  createClient,
  type WatchEvent,
} from "@kapi/client";
import { gadgetRoundTrip } from "./gadgets.js";

function configMap(name: string, data: Record<string, string>): coreV1.ConfigMap {
  return { apiVersion: "v1", kind: "ConfigMap", metadata: { name, labels: { app: "sdk-package" } }, data };
}

// Never called: each line must fail to typecheck, or tsc reports the unused directive.
export function wrongCalls(clients: Clientset, deployment: appsV1.Deployment): void {
  const { configMaps, namespaces } = clients.coreV1;
  // @ts-expect-error a namespaced resource is addressed in a namespace
  void configMaps.get("one", {});
  // @ts-expect-error a cluster-scoped resource has no namespace
  void namespaces.get("default", { namespace: "default" });
  // @ts-expect-error ConfigMap data values are strings
  void configMaps.create({ metadata: { name: "one" }, data: { a: 1 } }, { namespace: "default" });
  // @ts-expect-error a Deployment is not a ConfigMap
  void configMaps.create(deployment, { namespace: "default" });
  // @ts-expect-error a ConfigMap's apiVersion is v1
  const wrongVersion: coreV1.ConfigMap = { apiVersion: "apps/v1" };
  // @ts-expect-error core/v1 has no such resource
  void clients.coreV1.widgets;
  void wrongVersion;
}

async function main(kubeconfig: string, namespace: string): Promise<void> {
  const clients = createClient(ApiClient.fromKubeconfig({ path: kubeconfig }));
  const { configMaps, namespaces } = clients.coreV1;
  await namespaces.create({ metadata: { name: namespace } }, {});

  const created = await configMaps.create(configMap("sdk-one", { a: "1" }), { namespace });
  const got = await configMaps.get("sdk-one", { namespace });
  const list = await configMaps.list({ namespace, labelSelector: "app=sdk-package" });

  const abort = new AbortController();
  const events: WatchEvent<coreV1.ConfigMap>[] = [];
  const watching = (async () => {
    const watch = configMaps.watch({
      namespace,
      labelSelector: "app=sdk-package",
      resourceVersion: list.metadata?.resourceVersion ?? "",
      signal: abort.signal,
    });
    for await (const event of watch) {
      events.push(event);
      if (event.type === "ADDED") abort.abort();
    }
  })();
  await configMaps.create(configMap("sdk-two", { b: "2" }), { namespace });
  // A watch that never sees the create ends here, and the test reports what it saw.
  const deadline = setTimeout(() => abort.abort(), 10_000);
  await watching;
  clearTimeout(deadline);

  const paged: string[] = [];
  for await (const item of configMaps.listAll({ namespace, limit: 1 })) paged.push(item.metadata?.name ?? "");

  const informer = configMaps.informer({ namespace, labelSelector: "app=sdk-package" });
  await informer.start();
  const cached = informer.list().map((item) => item.metadata?.name).sort();
  informer.stop();

  let missing = "";
  try {
    await configMaps.get("sdk-missing", { namespace });
  } catch (error) {
    if (error instanceof ApiError) missing = \`\${error.code} \${error.reason}\`;
  }

  const gadget = await gadgetRoundTrip(clients.api, namespace);

  const result = {
    createdUid: created.metadata?.uid ?? "",
    gotData: got.data ?? {},
    listed: (list.items ?? []).map((item) => item.metadata?.name),
    watched: events.map((event) => (event.type === "RELISTED" ? event.type : \`\${event.type} \${event.object.metadata?.name}\`)),
    paged,
    cached,
    missing,
    gadget: gadget.spec,
  };
  console.log(JSON.stringify(result));
}

main(process.argv[2] ?? "", process.argv[3] ?? "").catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
`;

/**
 * A CustomResourceDefinition: `kapi sdk --crd` reads it to write a client importing the installed package,
 * and the consumer applies it before using that client.
 */
const gadgetsCrd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.sdk.kapi.dev
spec:
  group: sdk.kapi.dev
  scope: Namespaced
  names: { kind: Gadget, listKind: GadgetList, plural: gadgets, singular: gadget }
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              required: [size]
              properties:
                size: { type: string, enum: [small, large] }
                replicas: { type: integer, format: int32 }
`;

/** Code using the client `kapi sdk` generated, next to the built-in clients of the package. */
const gadgetsConsumer = `import {
  type ApiClient,
  type apiextensionsV1,
  type Clientset,
  createClient as createBuiltInClient,
} from "@kapi/client";
import { createClient } from "./crd/client/index.js";
import type * as sdkV1 from "./crd/sdk.kapi.dev/v1/types.js";

const crd: apiextensionsV1.CustomResourceDefinition = ${JSON.stringify(parse(gadgetsCrd))};

type Definitions = Clientset["apiextensionsV1"]["customResourceDefinitions"];

async function established(definitions: Definitions): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const got = await definitions.get(crd.metadata?.name ?? "", {});
    if (got.status?.conditions?.some((c) => c.type === "Established" && c.status === "True")) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("the CustomResourceDefinition was not established");
}

/** Serves the CRD (apply: both projects run it), then writes and reads a Gadget. */
export async function gadgetRoundTrip(api: ApiClient, namespace: string): Promise<sdkV1.Gadget> {
  const definitions = createBuiltInClient(api).apiextensionsV1.customResourceDefinitions;
  await definitions.apply(crd, { fieldManager: "sdk-package", force: true });
  await established(definitions);
  const { gadgets } = createClient(api).sdkV1;
  await gadgets.create({ metadata: { name: "g1" }, spec: { size: "small", replicas: 2 } }, { namespace });
  return gadgets.get("g1", { namespace });
}

// Never called: each line must fail to typecheck.
export function wrongGadgetCalls(api: ApiClient): void {
  const { gadgets } = createClient(api).sdkV1;
  // @ts-expect-error a Gadget's size is small or large
  void gadgets.create({ spec: { size: "medium" } }, { namespace: "default" });
  // @ts-expect-error Gadgets are namespaced
  void gadgets.list({});
}
`;

/** What `npm pack --json` reports of one package. */
interface PackResult {
  filename: string;
  files: { path: string }[];
}

interface ConsumerProject {
  title: string;
  dir: string;
  type: "module" | "commonjs";
  /** How the compiled consumer loads the package. */
  loads: string;
  /** TypeScript's module and resolution settings a consumer of this module format uses. */
  module: "nodenext" | "node16";
  /** Also typecheck as a bundler-based project (Vite, esbuild) does: the "import" condition, no emit. */
  bundler: boolean;
}

async function writeProject(project: ConsumerProject, crdFile: string): Promise<void> {
  mkdirSync(join(project.dir, "src"), { recursive: true });
  writeFileSync(join(project.dir, "src/main.ts"), consumer);
  writeFileSync(join(project.dir, "src/gadgets.ts"), gadgetsConsumer);
  const sdkExit = await runSdkCommand(["--crd", crdFile, "--out", join(project.dir, "src/crd")]);
  if (sdkExit !== 0) throw new Error(`kapi sdk --crd exited with ${sdkExit}`);
  const packageJson = { name: `sdk-consumer-${project.type}`, version: "1.0.0", private: true, type: project.type };
  writeFileSync(join(project.dir, "package.json"), JSON.stringify(packageJson, null, 2));
  const compilerOptions = {
    target: "ES2022",
    module: project.module,
    moduleResolution: project.module,
    strict: true,
    // As `tsc --init` sets it; the build has typechecked the sources the declarations come from.
    skipLibCheck: true,
    types: ["node"],
    typeRoots: [join(root, "node_modules/@types")],
    outDir: "out",
  };
  writeFileSync(join(project.dir, "tsconfig.json"), JSON.stringify({ compilerOptions, include: ["src"] }, null, 2));
  if (!project.bundler) return;
  const bundler = {
    extends: "./tsconfig.json",
    compilerOptions: { module: "esnext", moduleResolution: "bundler", noEmit: true },
  };
  writeFileSync(join(project.dir, "tsconfig.bundler.json"), JSON.stringify(bundler, null, 2));
}

describe("the @kapi/client package", () => {
  let dir: string;
  let server: RunningServer;
  let kubeconfig: string;
  let tarball: string;
  let packed: PackResult;
  const projects: Record<"esm" | "cjs", ConsumerProject> = {
    esm: {
      title: "an ES module",
      dir: "",
      type: "module",
      loads: 'from "@kapi/client"',
      module: "nodenext",
      bundler: true,
    },
    cjs: {
      title: "a CommonJS",
      dir: "",
      type: "commonjs",
      loads: 'require("@kapi/client")',
      module: "node16",
      bundler: false,
    },
  };
  // npm's cache in the temp dir: nothing is fetched, and the user's cache stays untouched.
  const npmEnv = () => ({ npm_config_cache: join(dir, "npm-cache"), npm_config_update_notifier: "false" });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "kapi-sdk-package-"));
    const packageDir = join(dir, "package");
    const [started] = await Promise.all([
      startServer(),
      run(bin("tsx"), [join(root, "scripts/build-sdk.ts"), "--out-dir", packageDir], root),
    ]);
    server = started;
    kubeconfig = join(dir, "admin.kubeconfig");
    writeFileSync(kubeconfig, server.kubeconfig);
    const crdFile = join(dir, "gadgets-crd.yaml");
    writeFileSync(crdFile, gadgetsCrd);

    const packOutput = await run("npm", ["pack", "--json", "--pack-destination", dir, packageDir], dir, npmEnv());
    [packed] = JSON.parse(packOutput) as [PackResult];
    tarball = join(dir, packed.filename);

    await Promise.all(
      Object.entries(projects).map(async ([name, project]) => {
        project.dir = join(dir, name);
        await writeProject(project, crdFile);
        await run("npm", ["install", "--offline", "--no-audit", "--no-fund", tarball], project.dir, npmEnv());
      }),
    );
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("packs both builds, their declarations and an exports map, with no runtime dependencies", () => {
    const paths = packed.files.map((file) => file.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        "package.json",
        "README.md",
        "LICENSE",
        "esm/index.js",
        "esm/index.d.ts",
        "cjs/index.cjs",
        "cjs/index.d.ts",
        "cjs/package.json",
        "esm/types/generated/core/v1/types.d.ts",
        "cjs/types/generated/core/v1/types.d.ts",
      ]),
    );
    const installed = JSON.parse(
      readFileSync(join(projects.esm.dir, "node_modules/@kapi/client/package.json"), "utf8"),
    ) as Record<string, unknown>;
    const repo = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string };
    expect(installed).toMatchObject({ name: "@kapi/client", version: repo.version });
    expect(installed.dependencies).toBeUndefined();
    expect(installed.exports).toEqual({
      ".": {
        import: { types: "./esm/index.d.ts", default: "./esm/index.js" },
        require: { types: "./cjs/index.d.ts", default: "./cjs/index.cjs" },
      },
      "./package.json": "./package.json",
    });
    for (const project of Object.values(projects)) {
      expect(readdirSync(join(project.dir, "node_modules")).filter((name) => !name.startsWith("."))).toEqual(["@kapi"]);
    }
  });

  for (const name of ["esm", "cjs"] as const) {
    it(`typechecks and runs in ${projects[name].title} project`, async () => {
      const project = projects[name];
      const tsconfigs = project.bundler ? ["tsconfig.json", "tsconfig.bundler.json"] : ["tsconfig.json"];
      await Promise.all(tsconfigs.map((tsconfig) => run(bin("tsc"), ["-p", tsconfig], project.dir)));
      expect(readFileSync(join(project.dir, "out/main.js"), "utf8")).toContain(project.loads);

      const output = await run(process.execPath, ["out/main.js", kubeconfig, `sdk-${name}`], project.dir);
      const result = JSON.parse(output) as Record<string, unknown>;
      expect(result.createdUid).toMatch(/^[0-9a-f-]{36}$/);
      expect(result.gotData).toEqual({ a: "1" });
      expect(result.listed).toEqual(["sdk-one"]);
      expect(result.watched).toEqual(["ADDED sdk-two"]);
      expect(result.paged).toEqual(expect.arrayContaining(["sdk-one", "sdk-two"]));
      expect(result.cached).toEqual(["sdk-one", "sdk-two"]);
      expect(result.missing).toBe("404 NotFound");
      expect(result.gadget).toEqual({ size: "small", replicas: 2 });
    });
  }
});
