// `kapi serve`'s command line as kube-apiserver's pflag reads it, before serve-flags.ts takes the flags kapi
// honours: `-h`/`--help` and `--version`, unknown flags refused in pflag's words, and kube-apiserver's flags
// that mean nothing to kapi taken (their values checked as pflag checks them) with one notice each.

import { parseGoDuration } from "../authz/authorization-config.js";
import { versionInfo } from "../server/endpoints/version.js";
import {
  type FlagSection,
  hiddenKubeFlags,
  type KubeFlag,
  kapiSection,
  kubeApiserverSections,
  noEffect,
  shorthands,
} from "./kube-apiserver-flags.js";

export interface ServeCommandLine {
  /** The arguments left for parseServeFlags: the flags kapi honours, as given. */
  args: string[];
  /** `flag --x has no effect in kapi: <why>`, one per flag given that kapi does not honour. */
  notices: string[];
  /** What to print and exit 0 with instead of serving (help or version), if asked. */
  print?: string;
}

const allFlags: ReadonlyMap<string, KubeFlag> = new Map(
  [kapiSection, ...kubeApiserverSections, { name: "hidden", flags: hiddenKubeFlags }].flatMap((s) =>
    s.flags.map((f) => [f.name, f] as const),
  ),
);

function parseBool(name: string, value: string): boolean {
  if (["1", "t", "T", "TRUE", "true", "True"].includes(value)) return true;
  if (["0", "f", "F", "FALSE", "false", "False"].includes(value)) return false;
  throw new Error(
    `invalid argument "${value}" for "--${name}" flag: strconv.ParseBool: parsing "${value}": invalid syntax`,
  );
}

/** pflag's check of a value kapi then leaves unused. */
function checkValue(flag: KubeFlag, value: string): void {
  const invalid = (why: string) => new Error(`invalid argument "${value}" for "--${flag.name}" flag: ${why}`);
  switch (flag.type) {
    case "":
      parseBool(flag.name, value);
      return;
    case "int":
      if (!/^[+-]?\d+$/.test(value)) throw invalid(`strconv.ParseInt: parsing "${value}": invalid syntax`);
      return;
    case "float":
    case "float32":
      if (value.trim() === "" || Number.isNaN(Number(value))) {
        throw invalid(`strconv.ParseFloat: parsing "${value}": invalid syntax`);
      }
      return;
    case "duration":
      try {
        parseGoDuration(value);
      } catch {
        throw invalid(`time: invalid duration "${value}"`);
      }
      return;
  }
}

/** `kapi serve --version`: kube's line, and `--version=raw` Go's print of version.Info. */
function versionText(value: string): string | undefined {
  if (value === "raw") {
    const fields = Object.entries(versionInfo).map(
      ([k, v]) => `${k.charAt(0).toUpperCase()}${k.slice(1)}:${JSON.stringify(v)}`,
    );
    return `version.Info{${fields.join(", ")}}\n`;
  }
  return parseBool("version", value) ? `Kubernetes ${versionInfo.gitVersion}\n` : undefined;
}

/**
 * Reads the command line as pflag would. `honoured` names the flags serve-flags.ts parses; a kube-apiserver
 * flag outside it gets a notice. Throws pflag's and cobra's texts (`unknown flag: --x`).
 */
export function readServeCommandLine(args: readonly string[], honoured: ReadonlySet<string>): ServeCommandLine {
  const kept: string[] = [];
  const notices: string[] = [];
  let help = false;
  let version: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    let name: string;
    let value: string | undefined;
    if (arg.startsWith("--") && arg.length > 2) {
      const eq = arg.indexOf("=");
      name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
      if (eq >= 0) value = arg.slice(eq + 1);
    } else if (arg.startsWith("-") && arg.length > 1 && arg !== "--") {
      const letter = arg.charAt(1);
      const long = shorthands[letter];
      if (long === undefined) throw new Error(`unknown shorthand flag: '${letter}' in ${arg}`);
      name = long;
      const rest = arg.slice(2);
      if (rest !== "") value = rest.startsWith("=") ? rest.slice(1) : rest;
    } else {
      const positional = args.slice(i).filter((a) => a !== "--");
      if (positional.length === 0) break;
      throw new Error(`"kapi serve" does not take any arguments, got ${JSON.stringify(positional)}`);
    }
    const flag = allFlags.get(name);
    if (flag === undefined) throw new Error(`unknown flag: --${name}`);
    const boolean = flag.type === "";
    if (value === undefined && !boolean && name !== "version") {
      if (i + 1 >= args.length) throw new Error(`flag needs an argument: --${name}`);
      value = args[++i] as string;
    }
    if (name === "help") {
      help = value === undefined || parseBool(name, value);
      continue;
    }
    if (name === "version") {
      version = value ?? "true";
      continue;
    }
    if (honoured.has(name)) {
      kept.push(value === undefined ? `--${name}` : `--${name}=${value}`);
      continue;
    }
    const why = noEffect[name];
    if (why === undefined) throw new Error(`flag --${name} is neither parsed by kapi nor given a reason to be ignored`);
    checkValue(flag, value ?? "true");
    notices.push(`flag --${name} has no effect in kapi: ${why}`);
  }
  if (help) return { args: kept, notices, print: serveHelp(honoured) };
  const printed = version === undefined ? undefined : versionText(version);
  return { args: kept, notices, ...(printed === undefined ? {} : { print: printed }) };
}

const shortOf: ReadonlyMap<string, string> = new Map(Object.entries(shorthands).map(([s, l]) => [l, s]));

/** One section as pflag prints it: names padded to the longest, then the description and default. */
function sectionText(section: FlagSection, honoured: ReadonlySet<string>): string {
  const heads = section.flags.map((f) => {
    const short = shortOf.get(f.name);
    const head = short === undefined ? `      --${f.name}` : `  -${short}, --${f.name}`;
    return f.type === "" ? head : `${head} ${f.type}`;
  });
  const width = Math.max(...heads.map((h) => h.length));
  return section.flags
    .map((f, i) => {
      const why = honoured.has(f.name) || f.name === "help" || f.name === "version" ? undefined : noEffect[f.name];
      const usage = `${f.description}${why === undefined ? "" : ` (no effect in kapi: ${why})`}`;
      const head = heads[i] as string;
      return `${head}${" ".repeat(width - head.length)}   ${usage}${f.default === undefined ? "" : ` (default ${f.default})`}\n`;
    })
    .join("");
}

/** `kapi serve --help`: kapi's usage, then the flags in kube-apiserver's sections and order. */
export function serveHelp(honoured: ReadonlySet<string>): string {
  const sections = [kapiSection, ...kubeApiserverSections]
    .map((s) => `\n${s.name} flags:\n\n${sectionText(s, honoured)}`)
    .join("");
  return `kapi serve runs a Kubernetes API server that behaves as kube-apiserver v1.36 does: it serves the
built-in APIs and custom resources from its own store, with kube-apiserver's authentication,
authorization, admission and flags.

Usage:
  kapi serve [flags]
${sections}`;
}
