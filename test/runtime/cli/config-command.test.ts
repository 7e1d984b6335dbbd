// `kapi config`: the command's run function with captured output, one spawned smoke test through bin/kapi.js,
// and the start-time check of --egress-selector-config-file and --tracing-config-file with the errors
// kube-apiserver v1.36 printed for the same files.
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runConfigCommand } from "../../../runtime/cli/config-command.js";
import { parseServeFlags } from "../../../runtime/cli/serve-flags.js";
import { checkInertConfigFiles } from "../../../runtime/config/inert-config-files.js";

const files: Record<string, string> = {
  "authz.yaml":
    "apiVersion: apiserver.config.k8s.io/v1beta1\nkind: AuthorizationConfiguration\nauthorizers:\n- type: Webhook\n  name: w\n  webhook:\n    timeout: 3s\n    failurePolicy: Deny\n",
  "egress-bad.yaml":
    "apiVersion: apiserver.k8s.io/v1beta1\nkind: EgressSelectorConfiguration\negressSelections:\n- name: bogus\n  connection:\n    proxyProtocol: HTTPConnect\n",
  "egress-one.yaml":
    "apiVersion: apiserver.k8s.io/v1beta1\nkind: EgressSelectorConfiguration\negressSelections:\n- name: bogus\n  connection:\n    proxyProtocol: Direct\n",
  "egress-ok.yaml":
    "apiVersion: apiserver.k8s.io/v1beta1\nkind: EgressSelectorConfiguration\negressSelections:\n- name: cluster\n  connection:\n    proxyProtocol: Direct\n",
  "egress-unknown.yaml":
    "apiVersion: apiserver.k8s.io/v1beta1\nkind: EgressSelectorConfiguration\negressSelections:\n- name: cluster\n  connection:\n    proxyProtocol: Direct\n  foo: 1\n",
  "tracing-bad.yaml":
    'apiVersion: apiserver.config.k8s.io/v1\nkind: TracingConfiguration\nendpoint: "http://[::1"\nsamplingRatePerMillion: 2000000\n',
  "tracing-kind.yaml": "apiVersion: apiserver.config.k8s.io/v1\nkind: Foo\n",
  "tracing-ok.yaml": "apiVersion: apiserver.config.k8s.io/v1\nkind: TracingConfiguration\nendpoint: localhost:4317\n",
};

async function run(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await runConfigCommand(args, {
    out: (text) => {
      out += text;
    },
    err: (text) => {
      err += text;
    },
    readFile: (path) => {
      const text = files[path];
      if (text === undefined) throw new Error(`open ${path}: no such file or directory`);
      return text;
    },
  });
  return { code, out, err };
}

describe("kapi config validate", () => {
  it("says a valid file is valid", async () => {
    expect(await run("validate", "egress-ok.yaml")).toEqual({ code: 0, out: "egress-ok.yaml: valid\n", err: "" });
  });

  it("prints kube's field errors as its aggregate does and exits 1", async () => {
    expect(await run("validate", "egress-bad.yaml")).toEqual({
      code: 1,
      out: "",
      err: 'egress-bad.yaml: EgressSelectorConfiguration: [service.connection.transport: Required value: transport must be set for HTTPConnect, service.connection: Unsupported value: "bogus": supported values: "cluster", "controlplane", "etcd"]\n',
    });
    expect((await run("validate", "egress-one.yaml")).err).toBe(
      'egress-one.yaml: EgressSelectorConfiguration: service.connection: Unsupported value: "bogus": supported values: "cluster", "controlplane", "etcd"\n',
    );
  });

  it("prints strict decoding errors", async () => {
    expect(await run("validate", "egress-unknown.yaml")).toEqual({
      code: 1,
      out: "",
      err: 'egress-unknown.yaml: strict decoding error: unknown field "egressSelections[0].foo"\n',
    });
  });
});

describe("kapi config default and convert", () => {
  it("prints the defaulted object as YAML or JSON", async () => {
    const yaml = await run("default", "authz.yaml");
    expect(yaml.code).toBe(0);
    expect(yaml.out).toBe(
      "apiVersion: apiserver.config.k8s.io/v1beta1\nauthorizers:\n- name: w\n  type: Webhook\n  webhook:\n    authorizedTTL: 5m0s\n    cacheAuthorizedRequests: true\n    cacheUnauthorizedRequests: true\n    failurePolicy: Deny\n    timeout: 3s\n    unauthorizedTTL: 30s\nkind: AuthorizationConfiguration\n",
    );
    const json = await run("default", "-o", "json", "authz.yaml");
    expect(JSON.parse(json.out).authorizers[0].webhook.cacheAuthorizedRequests).toBe(true);
  });

  it("converts to another version of the group, and refuses one without the kind", async () => {
    const converted = await run(
      "convert",
      "--output-version",
      "apiserver.config.k8s.io/v1",
      "-o",
      "json",
      "authz.yaml",
    );
    expect(converted.code).toBe(0);
    expect(JSON.parse(converted.out)).toEqual({
      apiVersion: "apiserver.config.k8s.io/v1",
      kind: "AuthorizationConfiguration",
      authorizers: [{ type: "Webhook", name: "w", webhook: { timeout: "3s", failurePolicy: "Deny" } }],
    });
    expect(await run("convert", "--output-version=apiserver.k8s.io/v1alpha1", "authz.yaml")).toEqual({
      code: 1,
      out: "",
      err: 'authz.yaml: no kind "AuthorizationConfiguration" is registered for version "apiserver.k8s.io/v1alpha1"\n',
    });
  });

  it("refuses wrong usage with exit status 2", async () => {
    expect((await run("convert", "authz.yaml")).code).toBe(2);
    expect((await run("default", "-o", "xml", "authz.yaml")).code).toBe(2);
    expect((await run("frobnicate", "authz.yaml")).code).toBe(2);
    expect((await run("validate")).code).toBe(2);
  });
});

describe("--egress-selector-config-file and --tracing-config-file", () => {
  const dir = mkdtempSync(join(tmpdir(), "kapi-config-"));
  const path = (name: string) => {
    const p = join(dir, name);
    writeFileSync(p, files[name] ?? "");
    return p;
  };

  it("are parsed by kapi serve", () => {
    const options = parseServeFlags(["--egress-selector-config-file=/a.yaml", "--tracing-config-file", "/b.yaml"]);
    expect(options.inertConfigFiles).toEqual({ egressSelectorConfigFile: "/a.yaml", tracingConfigFile: "/b.yaml" });
  });

  it("fail the start with kube-apiserver's errors", () => {
    expect(() => checkInertConfigFiles({ egressSelectorConfigFile: path("egress-unknown.yaml") })).toThrow(
      'failed to read egress selector config: strict decoding error: unknown field "egressSelections[0].foo"',
    );
    expect(() => checkInertConfigFiles({ egressSelectorConfigFile: path("egress-bad.yaml") })).toThrow(
      'failed to validate egress selector configuration: [service.connection.transport: Required value: transport must be set for HTTPConnect, service.connection: Unsupported value: "bogus": supported values: "cluster", "controlplane", "etcd"]',
    );
    expect(() => checkInertConfigFiles({ egressSelectorConfigFile: path("tracing-ok.yaml") })).toThrow(
      'failed to read egress selector config: no kind "TracingConfiguration" is registered for version "apiserver.config.k8s.io/v1" in scheme "pkg/server/egressselector/config.go:33"',
    );
    const missing = join(dir, "missing.yaml");
    expect(() => checkInertConfigFiles({ egressSelectorConfigFile: missing })).toThrow(
      `failed to read egress selector config: unable to read egress selector configuration from "${missing}" [open ${missing}: no such file or directory]`,
    );
    expect(() => checkInertConfigFiles({ tracingConfigFile: path("tracing-bad.yaml") })).toThrow(
      `failed to validate tracing configuration: [samplingRatePerMillion: Invalid value: 2000000: sampling rate per million must be less than or equal to one million, endpoint: Invalid value: "http://[::1": parse "http://[::1": missing ']' in host]`,
    );
    expect(() => checkInertConfigFiles({ tracingConfigFile: path("tracing-kind.yaml") })).toThrow(
      'failed to read tracing config: unable to decode tracing configuration data: no kind "Foo" is registered for version "apiserver.config.k8s.io/v1" in scheme "pkg/server/options/tracing.go:49"',
    );
    expect(() => checkInertConfigFiles({ tracingConfigFile: missing })).toThrow(
      `failed to read tracing config: unable to read tracing configuration from "${missing}": open ${missing}: no such file or directory`,
    );
  });

  it("say that a valid file has no effect", () => {
    expect(
      checkInertConfigFiles({
        egressSelectorConfigFile: path("egress-ok.yaml"),
        tracingConfigFile: path("tracing-ok.yaml"),
      }),
    ).toEqual([
      `egress selector configuration ${join(dir, "egress-ok.yaml")} is valid; it has no effect: kapi makes no connections through egress proxies`,
      `tracing configuration ${join(dir, "tracing-ok.yaml")} is valid; it has no effect: kapi exports no traces`,
    ]);
  });
});

describe("kapi config (spawned)", () => {
  it("validates a file through bin/kapi.js", () => {
    const dir = mkdtempSync(join(tmpdir(), "kapi-config-cli-"));
    const file = join(dir, "egress-bad.yaml");
    writeFileSync(file, files["egress-bad.yaml"] ?? "");
    const result = spawnSync(process.execPath, ["bin/kapi.js", "config", "validate", file], { encoding: "utf8" });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      `${file}: EgressSelectorConfiguration: [service.connection.transport: Required value`,
    );
  }, 60_000);
});
