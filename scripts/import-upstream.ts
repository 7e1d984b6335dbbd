// Maintenance tool: regenerates schemas/ from Kubernetes release data (../shared/upstream by default)
// plus kapi's own overlays (scripts/import/overlay/*.yaml). Usage: npm run import-upstream [-- <upstream dir>]
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { writeSchemaYaml } from "../generator/schema/yaml.js";
import { SchemaImporter } from "./import/build-schemas.js";
import { applyOverlay, type Overlay } from "./import/overlay.js";
import { readUpstream } from "./import/upstream-data.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const upstreamDir = resolve(process.argv[2] ?? join(root, "../shared/upstream"));

const started = performance.now();
const { files, report } = new SchemaImporter(readUpstream(upstreamDir)).run();
// Overlay files apply in name order; each is kapi's own data about one concern.
const overlayDir = join(root, "scripts/import/overlay");
for (const name of readdirSync(overlayDir)
  .filter((n) => n.endsWith(".yaml"))
  .sort()) {
  const overlay = parse(readFileSync(join(overlayDir, name), "utf8")) as Overlay;
  report.push(...applyOverlay(files, overlay).map((p) => `${name}: ${p}`));
}

for (const [id, file] of files) {
  const path = join(root, "schemas", `${id}.yaml`);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, writeSchemaYaml(file, `schemas/${id}.yaml`));
}
for (const line of report) console.log(`note: ${line}`);
console.log(`imported ${files.size} schema files in ${Math.round(performance.now() - started)} ms`);
