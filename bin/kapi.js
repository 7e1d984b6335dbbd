#!/usr/bin/env node
// Entry point of the `kapi` command: runs the TypeScript CLI through tsx.
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const main = join(dirname(fileURLToPath(import.meta.url)), "../runtime/cli/main.ts");
const result = spawnSync(process.execPath, ["--import", "tsx", main, ...process.argv.slice(2)], { stdio: "inherit" });
process.exit(result.status ?? 1);
