// `kapi config default|validate|convert FILE`: a configuration file (docs/configuration-files.md) read as
// kube-apiserver reads it, then printed with its defaults, checked, or converted to another version.
import { readFileSync } from "node:fs";
import { toGoYaml } from "../codecs/go-yaml.js";
import { ConfigError, convertConfig, decodeConfig, defaultConfig, validateConfig } from "../config/config-document.js";

export interface ConfigCommandIo {
  out(text: string): void;
  err(text: string): void;
  readFile(path: string): string;
}

const processIo: ConfigCommandIo = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  readFile: (path) => readFileSync(path, "utf8"),
};

const usage = `usage: kapi config <default|validate|convert> [flags] FILE

  default [-o yaml|json] FILE                               print the object with kube's defaults
  validate FILE                                             check the file as kube-apiserver does
  convert --output-version GROUP/VERSION [-o yaml|json] FILE   print the object in another version
`;

interface ConfigArgs {
  verb: string;
  file: string;
  output: "yaml" | "json";
  outputVersion?: string;
}

function parseArgs(args: readonly string[]): ConfigArgs | string {
  const [verb, ...rest] = args;
  if (verb === undefined || !["default", "validate", "convert"].includes(verb))
    return `unknown command ${JSON.stringify(verb ?? "")}`;
  let output: "yaml" | "json" = "yaml";
  let outputVersion: string | undefined;
  const files: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] ?? "";
    const [flag, inline] = arg.startsWith("-") ? arg.split("=", 2) : [arg, undefined];
    const value = () => inline ?? rest[++i];
    if (flag === "-o" || flag === "--output") {
      const format = value();
      if (format !== "yaml" && format !== "json") return `unsupported output format ${JSON.stringify(format ?? "")}`;
      output = format;
    } else if (flag === "--output-version") {
      outputVersion = value();
      if (outputVersion === undefined || outputVersion === "") return "--output-version needs a value";
    } else if (arg.startsWith("-") && arg !== "-") {
      return `unknown flag ${arg}`;
    } else files.push(arg);
  }
  if (files.length !== 1 || files[0] === undefined) return "exactly one FILE is needed";
  if (verb === "convert" && outputVersion === undefined) return "convert needs --output-version GROUP/VERSION";
  if (verb !== "convert" && outputVersion !== undefined) return "--output-version is a flag of convert only";
  return { verb, file: files[0], output, ...(outputVersion === undefined ? {} : { outputVersion }) };
}

function render(object: unknown, output: "yaml" | "json"): string {
  return output === "json" ? `${JSON.stringify(object, null, 2)}\n` : toGoYaml(object);
}

/** Runs `kapi config …`; returns the exit status (0 done, 1 the file is wrong, 2 wrong usage). */
export async function runConfigCommand(args: string[], io: ConfigCommandIo = processIo): Promise<number> {
  const parsed = parseArgs(args);
  if (typeof parsed === "string") {
    io.err(`kapi config: ${parsed}\n${usage}`);
    return 2;
  }
  let text: string;
  try {
    text = io.readFile(parsed.file);
  } catch (error) {
    io.err(`kapi config: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  try {
    const { object, gvk } = decodeConfig(text);
    if (parsed.verb === "validate") {
      const errors = validateConfig(defaultConfig(object));
      if (errors.length === 0) {
        io.out(`${parsed.file}: valid\n`);
        return 0;
      }
      const unique = [...new Set(errors)];
      io.err(`${parsed.file}: ${gvk.kind}: ${unique.length === 1 ? unique[0] : `[${unique.join(", ")}]`}\n`);
      return 1;
    }
    const result =
      parsed.verb === "default" ? defaultConfig(object) : convertConfig(object, parsed.outputVersion ?? "");
    io.out(render(result, parsed.output));
    return 0;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    io.err(`${parsed.file}: ${error.message}\n`);
    return 1;
  }
}
