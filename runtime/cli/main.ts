// The `kapi` command. Verbs arrive with the issues that build them; unknown verbs fail with usage.
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");

const usage = `usage: kapi <command>

commands:
  generate         regenerate generated/ from schemas/ (npm run generate)
  generate --check fail if generated/ is out of date
  serve            run the API server (arrives with the core-server work; not available yet)
`;

function runGenerator(args: string[]): number {
  const result = spawnSync(process.execPath, ["--import", "tsx", join(root, "generator/main.ts"), ...args], {
    stdio: "inherit",
  });
  return result.status ?? 1;
}

const [command, ...args] = process.argv.slice(2);
switch (command) {
  case "generate":
    process.exitCode = runGenerator(args);
    break;
  case "serve":
    console.error("kapi serve is not available yet: the resource server lands with the core-server issue.");
    process.exitCode = 2;
    break;
  default:
    console.error(usage);
    process.exitCode = command === undefined || command === "help" ? 0 : 2;
}
