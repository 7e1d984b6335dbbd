import { execFileSync, spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import {
  hiddenKubeFlags,
  kapiSection,
  kubeApiserverSections,
  noEffect,
} from "../../../runtime/cli/kube-apiserver-flags.js";
import { readServeCommandLine, serveHelp } from "../../../runtime/cli/serve-command-line.js";
import { honouredFlags } from "../../../runtime/cli/serve-flags.js";

// kube-apiserver v1.36.2's `--help`: every section in order, and the flags each lists (recorded from the reference).
const kubeSections: [string, number][] = [
  ["Generic", 20],
  ["Etcd", 20],
  ["Secure serving", 13],
  ["Auditing", 31],
  ["Features", 4],
  ["Authentication", 30],
  ["Authorization", 7],
  ["API enablement", 1],
  ["Egress selector", 1],
  ["Admission", 6],
  ["Metrics", 4],
  ["Logs", 8],
  ["Traces", 1],
  ["Misc", 25],
  ["Global", 2],
];

const tableFlags = [kapiSection, ...kubeApiserverSections, { flags: hiddenKubeFlags }].flatMap((s) =>
  s.flags.map((f) => f.name),
);

describe("kube-apiserver's flag table", () => {
  it("has kube's sections in kube's order with kube's number of flags", () => {
    expect(kubeApiserverSections.map((s) => [s.name, s.flags.length])).toEqual(kubeSections);
  });

  it("gives every kube flag kapi does not parse a reason, and none that kapi parses", () => {
    const kube = kubeApiserverSections.flatMap((s) => s.flags.map((f) => f.name));
    const unaccounted = kube.filter(
      (n) => !honouredFlags.has(n) && !(n in noEffect) && n !== "help" && n !== "version",
    );
    expect(unaccounted).toEqual([]);
    expect(Object.keys(noEffect).filter((n) => honouredFlags.has(n))).toEqual([]);
    expect(Object.keys(noEffect).filter((n) => !kube.includes(n))).toEqual([]);
  });

  it("has a help entry for every flag kapi parses", () => {
    expect([...honouredFlags].filter((n) => !tableFlags.includes(n))).toEqual([]);
  });
});

describe("readServeCommandLine", () => {
  it("keeps the flags kapi honours and gives one notice per flag without effect", () => {
    const line = readServeCommandLine(
      ["--secure-port", "7000", "--etcd-servers", "http://x:2379", "--profiling", "--v=4", "-v", "5"],
      honouredFlags,
    );
    expect(line.args).toEqual(["--secure-port=7000", "--v=4", "--v=5"]);
    expect(line.notices).toEqual([
      "flag --etcd-servers has no effect in kapi: kapi keeps objects in its own store (--storage, --data-dir), not in etcd",
      "flag --profiling has no effect in kapi: kapi serves no profiling handlers",
    ]);
  });

  it("refuses what kube-apiserver refuses, in its words", () => {
    const refusal = (args: string[]) => () => readServeCommandLine(args, honouredFlags);
    expect(refusal(["--foo"])).toThrow(/^unknown flag: --foo$/);
    expect(refusal(["-x"])).toThrow(/^unknown shorthand flag: 'x' in -x$/);
    expect(refusal(["foo"])).toThrow('"kapi serve" does not take any arguments, got ["foo"]');
    expect(refusal(["--etcd-healthcheck-timeout=x"])).toThrow(
      'invalid argument "x" for "--etcd-healthcheck-timeout" flag: time: invalid duration "x"',
    );
    expect(refusal(["--delete-collection-workers=a"])).toThrow(
      'invalid argument "a" for "--delete-collection-workers" flag: strconv.ParseInt: parsing "a": invalid syntax',
    );
    expect(refusal(["--version=foo"])).toThrow(
      'invalid argument "foo" for "--version" flag: strconv.ParseBool: parsing "foo": invalid syntax',
    );
    expect(refusal(["--etcd-prefix"])).toThrow("flag needs an argument: --etcd-prefix");
  });

  it("prints help for -h and --help, and the version for --version", () => {
    expect(readServeCommandLine(["-h"], honouredFlags).print).toBe(serveHelp(honouredFlags));
    expect(readServeCommandLine(["--help=false"], honouredFlags).print).toBeUndefined();
    expect(readServeCommandLine(["--version"], honouredFlags).print).toBe("Kubernetes v1.36.2-kapi\n");
    expect(readServeCommandLine(["--version=raw"], honouredFlags).print).toMatch(
      /^version\.Info\{Major:"1", Minor:"36", .*GitVersion:"v1\.36\.2-kapi", .*Platform:"[a-z0-9]+\/[a-z0-9]+"\}\n$/,
    );
  });
});

describe("serveHelp", () => {
  const help = serveHelp(honouredFlags);

  it("lists the sections as pflag prints them", () => {
    const headers = help.split("\n").filter((l) => l.endsWith(" flags:"));
    expect(headers).toEqual(["Kapi flags:", ...kubeSections.map(([name]) => `${name} flags:`)]);
    // kube's Global section, aligned as pflag aligns it (the description two columns after the widest name).
    expect(help).toContain(
      "\nGlobal flags:\n\n  -h, --help                     Help for kapi serve.\n      --version version[=true]   ",
    );
    expect(help).toContain(
      "\n  -v, --v Level                              Log verbosity; 4 and above print debug lines.\n",
    );
    expect(help).toMatch(/\n {6}--request-timeout duration +.* \(default 1m0s\)\n/);
    expect(help).toMatch(/\n {6}--etcd-prefix string +.* \(no effect in kapi: .*\) \(default "\/registry"\)\n/);
  });
});

describe("kapi serve's command line", () => {
  const kapi = (args: string[]) =>
    spawnSync(process.execPath, ["--import", "tsx", "runtime/cli/main.ts", "serve", ...args], { encoding: "utf8" });

  it("fails an unknown flag as kube-apiserver does: `Error: unknown flag: --foo`, exit 1, nothing else", () => {
    const run = kapi(["--foo"]);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe("Error: unknown flag: --foo\n");
    expect(run.stdout).toBe("");
  });

  it("prints help on stdout and exits 0", () => {
    const out = execFileSync(process.execPath, ["--import", "tsx", "runtime/cli/main.ts", "serve", "--help"], {
      encoding: "utf8",
    });
    expect(out).toBe(serveHelp(honouredFlags));
  });
});
