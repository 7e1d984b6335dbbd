// The layering rules of .dependency-cruiser.cjs, run by `npm run lint`: the tree as it is passes, and a module
// that imports from a higher layer, or closes a cycle through a type import, fails.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = resolve(import.meta.dirname, "../..");
const depcruise = join(root, "node_modules/.bin/depcruise");
const config = join(root, ".dependency-cruiser.cjs");

let dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

/** A scratch tree laid out like the repository, with the given modules. */
function scratch(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "kapi-layers-"));
  dirs.push(dir);
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { module: "NodeNext", strict: true } }));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

async function cruise(cwd: string): Promise<{ ok: boolean; output: string }> {
  try {
    const { stdout } = await run(depcruise, ["runtime", "--config", config, "--output-type", "err"], { cwd });
    return { ok: true, output: stdout };
  } catch (error) {
    return { ok: false, output: String((error as { stdout?: string }).stdout) };
  }
}

describe("runtime layers", () => {
  it("accept a higher layer importing a lower one", async () => {
    const dir = scratch({
      "runtime/errors/status.ts": "export type Code = number;\n",
      "runtime/server/serve.ts": 'import type { Code } from "../errors/status.js";\nexport const ok: Code = 200;\n',
    });
    expect(await cruise(dir)).toEqual({ ok: true, output: expect.stringContaining("no dependency violations") });
  }, 30_000);

  it("refuse a lower layer importing a higher one, type imports included", async () => {
    const dir = scratch({
      "runtime/errors/status.ts": 'import type { Served } from "../server/serve.js";\nexport type Code = Served;\n',
      "runtime/server/serve.ts": "export type Served = number;\n",
    });
    const { ok, output } = await cruise(dir);
    expect(ok).toBe(false);
    expect(output).toContain("no-upward-from-base: runtime/errors/status.ts → runtime/server/serve.ts");
  }, 30_000);

  it("refuse an import cycle within one layer", async () => {
    const dir = scratch({
      "runtime/codecs/a.ts": 'import type { B } from "./b.js";\nexport type A = B[];\n',
      "runtime/codecs/b.ts": 'import type { A } from "./a.js";\nexport type B = A | number;\n',
    });
    const { ok, output } = await cruise(dir);
    expect(ok).toBe(false);
    expect(output).toContain("no-circular");
  }, 30_000);

  it("refuse a runtime module that belongs to no layer", async () => {
    const dir = scratch({
      "runtime/errors/e.ts": "export const e = 1;\n",
      "runtime/misc/thing.ts": 'import { e } from "../errors/e.js";\nexport const thing = e;\n',
    });
    const { ok, output } = await cruise(dir);
    expect(ok).toBe(false);
    expect(output).toContain("layered-everything");
  }, 30_000);
});
