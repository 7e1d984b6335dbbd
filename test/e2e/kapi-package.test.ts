// The kapi npm package as a user gets it: built by scripts/build-package.ts, packed by `npm pack`, installed
// into a fresh ES module project and a fresh CommonJS project, and run there with plain node (no tsx): the
// package entry starts a server that answers requests, the `kapi` command serves until SIGTERM.
//
// Installing stays on this machine. npm would fetch the package's dependencies and build better-sqlite3's
// native module; instead each project gets the tarball unpacked where npm puts it (node_modules/kapi, from
// the tarball's package/ folder) and its dependencies linked to the ones `npm ci` installed (and built) in
// this repository. Node resolves a linked package from its real path, so their own dependencies resolve too.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "./free-port.js";

const root = join(import.meta.dirname, "../..");
const execFileAsync = promisify(execFile);
const repoPackage = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  name: string;
  bin: Record<string, string>;
  dependencies: Record<string, string>;
};

/** The environment of every child: npm offline with its cache in the temp dir, node without loaders. */
function childEnv(dir: string): NodeJS.ProcessEnv {
  const { NODE_OPTIONS: _loaders, ...env } = process.env;
  return {
    ...env,
    npm_config_cache: join(dir, "npm-cache"),
    npm_config_offline: "true",
    npm_config_update_notifier: "false",
  };
}

/** stdout of a command; a failure rejects with everything it printed. */
async function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  try {
    return (await execFileAsync(command, args, { cwd, env })).stdout;
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(" ")} failed:\n${stdout}${stderr}`);
  }
}

/** What the consumer does, in either module format: a server, a ConfigMap written and read, OpenAPI and protobuf. */
const consumerBody = `
const token = "package-test";
const server = await startServer({ insecure: true, adminToken: token });
const headers = { authorization: \`Bearer \${token}\`, "content-type": "application/json" };
const path = "/api/v1/namespaces/default/configmaps";
const created = await fetch(server.url + path, {
  method: "POST",
  headers,
  body: JSON.stringify({ metadata: { name: "from-package" }, data: { a: "1" } }),
});
const got = await fetch(\`\${server.url}\${path}/from-package\`, { headers });
const openapi = await fetch(server.url + "/openapi/v3/apis/apps/v1", { headers });
const protobuf = await fetch(\`\${server.url}\${path}/from-package\`, {
  headers: { ...headers, accept: "application/vnd.kubernetes.protobuf" },
});
const openapiV2 = await fetch(server.url + "/openapi/v2", {
  headers: { ...headers, accept: "application/com.github.proto-openapi.spec.v2@v1.0+protobuf" },
});
console.log(JSON.stringify({
  created: created.status,
  data: (await got.json()).data,
  openapi: Object.keys((await openapi.json()).components.schemas).includes("io.k8s.api.apps.v1.Deployment"),
  protobuf: [protobuf.status, protobuf.headers.get("content-type")],
  openapiV2: [openapiV2.status, (await openapiV2.arrayBuffer()).byteLength > 100_000],
}));
await server.close();
`;

const projects = {
  esm: { type: "module", file: "main.js", code: `import { startServer } from "kapi";\n${consumerBody}` },
  cjs: {
    type: "commonjs",
    file: "main.js",
    code: `const { startServer } = require("kapi");\n(async () => {${consumerBody}})();`,
  },
} as const;

/** A fresh project with the unpacked package and links to the repository's installed dependencies. */
function writeProject(dir: string, type: string, file: string, code: string, unpacked: string): void {
  mkdirSync(join(dir, "node_modules"), { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: `kapi-consumer-${type}`, private: true, type }));
  writeFileSync(join(dir, file), code);
  cpSync(unpacked, join(dir, "node_modules", repoPackage.name), { recursive: true });
  for (const dependency of Object.keys(repoPackage.dependencies)) {
    symlinkSync(join(root, "node_modules", dependency), join(dir, "node_modules", dependency), "dir");
  }
}

function waitForExit(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}

describe("the kapi package", () => {
  let dir: string;
  let files: string[];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "kapi-package-"));
    const env = childEnv(dir);
    // The package's own directory, as npm pack sees it: package.json, README, LICENSE and the build.
    const stage = join(dir, "stage");
    mkdirSync(stage);
    for (const name of ["package.json", "README.md", "LICENSE"]) cpSync(join(root, name), join(stage, name));
    const build = join(root, "scripts/build-package.ts");
    await run(join(root, "node_modules/.bin/tsx"), [build, "--js-only", "--out-dir", join(stage, "dist")], root, env);
    // Scripts off: prepack would build again, in a directory without the sources.
    const packed = await run("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", dir, stage], dir, env);
    const [result] = JSON.parse(packed) as [{ filename: string; files: { path: string }[] }];
    files = result.files.map((f) => f.path);
    const unpacked = join(dir, "unpacked");
    mkdirSync(unpacked);
    await run("tar", ["-xzf", join(dir, result.filename), "-C", unpacked], dir, env);
    for (const [name, project] of Object.entries(projects)) {
      writeProject(join(dir, name), project.type, project.file, project.code, join(unpacked, "package"));
    }
  }, 120_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("holds the builds and the data files they read, and no sources, tests or tooling", () => {
    expect(files).toEqual(
      expect.arrayContaining([
        "package.json",
        "README.md",
        "LICENSE",
        "dist/esm/index.js",
        "dist/esm/cli.js",
        "dist/cjs/index.cjs",
        "dist/data/generated/openapi/v2.json",
        "dist/data/generated/openapi/v3/index.json",
        "dist/data/generated/proto/core/v1.proto",
        "dist/data/runtime/openapi/gnostic-openapi-v2.proto",
      ]),
    );
    const foreign = files.filter((path) => !/^(dist\/(esm|cjs|data)\/|package\.json$|README\.md$|LICENSE$)/.test(path));
    expect(foreign).toEqual([]);
    expect(files.filter((path) => /(^|\/)(test|bench|generator|schemas|scripts)\//.test(path))).toEqual([]);
    expect(files.filter((path) => /\.ts$/.test(path) && !/\.d\.ts$/.test(path))).toEqual([]);
  });

  for (const name of ["esm", "cjs"] as const) {
    it(`starts a server from the ${name === "esm" ? "import" : "require"} entry under plain node`, async () => {
      const output = await run(process.execPath, [projects[name].file], join(dir, name), childEnv(dir));
      expect(JSON.parse(output)).toEqual({
        created: 201,
        data: { a: "1" },
        openapi: true,
        protobuf: [200, "application/vnd.kubernetes.protobuf"],
        openapiV2: [200, true],
      });
    });
  }

  it("runs `kapi serve` from the package's bin until SIGTERM", async () => {
    const bin = repoPackage.bin.kapi ?? "";
    const port = await freePort();
    const project = join(dir, "esm");
    const child = spawn(
      process.execPath,
      [join(project, "node_modules/kapi", bin), "serve", "--plain-http", "--secure-port", String(port)],
      { cwd: project, env: childEnv(dir), stdio: ["ignore", "pipe", "pipe"] },
    );
    const exited = waitForExit(child);
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    try {
      let ready = 0;
      for (let attempt = 0; attempt < 200 && ready !== 200; attempt++) {
        ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
          (response) => response.status,
          () => 0,
        );
        if (ready !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(ready, output).toBe(200);
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exited, output).toBe(0);
  });
});
