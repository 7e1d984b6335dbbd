// The configuration-file framework against kube-apiserver v1.36's answers: the texts below are what kube
// printed when started with the same files (recorded from kube-apiserver --egress-selector-config-file,
// --tracing-config-file), and what its defaulters and conversions give.
import { describe, expect, it } from "vitest";
import {
  ConfigError,
  convertConfig,
  decodeConfig,
  defaultConfig,
  validateConfig,
} from "../../../runtime/config/config-document.js";

const egress = (selections: string) =>
  `apiVersion: apiserver.k8s.io/v1beta1\nkind: EgressSelectorConfiguration\negressSelections:\n${selections}`;

function decodeError(text: string, options?: Parameters<typeof decodeConfig>[1]): string {
  try {
    decodeConfig(text, options);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error("decoded");
}

describe("decodeConfig", () => {
  it("decodes a registered kind and names its group, version and kind", () => {
    const { object, gvk } = decodeConfig(egress("- name: cluster\n  connection:\n    proxyProtocol: Direct\n"));
    expect(gvk).toEqual({ group: "apiserver.k8s.io", version: "v1beta1", kind: "EgressSelectorConfiguration" });
    expect(object.egressSelections).toEqual([{ name: "cluster", connection: { proxyProtocol: "Direct" } }]);
  });

  it("refuses unknown fields as kube's strict decoder does", () => {
    expect(decodeError(egress("- name: cluster\n  connection:\n    proxyProtocol: Direct\n  foo: 1\n"))).toBe(
      'strict decoding error: unknown field "egressSelections[0].foo"',
    );
  });

  it("drops unknown fields without strict decoding", () => {
    const { object } = decodeConfig(egress("- name: cluster\n  foo: 1\n"), { strict: false });
    expect(object.egressSelections).toEqual([{ name: "cluster" }]);
  });

  it("refuses repeated keys and wrongly typed values", () => {
    expect(decodeError(`${egress("  []\n")}egressSelections: []\n`)).toBe(
      'strict decoding error: yaml: unmarshal errors:\n  line 5: key "egressSelections" already set in map',
    );
    expect(decodeError(egress("- name: [1]\n"))).toBe(
      "json: cannot unmarshal array into Go struct field EgressSelection.egressSelections.name of type string",
    );
  });

  it("names the scheme of an unregistered kind and quotes a document without kind", () => {
    expect(
      decodeError("apiVersion: apiserver.config.k8s.io/v1\nkind: EgressSelectorConfiguration\n", {
        scheme: { name: "pkg/server/egressselector/config.go:33" },
      }),
    ).toBe(
      'no kind "EgressSelectorConfiguration" is registered for version "apiserver.config.k8s.io/v1" in scheme "pkg/server/egressselector/config.go:33"',
    );
    expect(decodeError("egressSelections: []\n")).toBe("Object 'Kind' is missing in 'egressSelections: []\n'");
    expect(decodeError("kind: X\n")).toBe("Object 'apiVersion' is missing in 'kind: X\n'");
  });

  it("accepts only the kinds a reader's scheme lists", () => {
    const text = "apiVersion: apiserver.config.k8s.io/v1\nkind: TracingConfiguration\n";
    expect(
      decodeError(text, { scheme: { name: "s", kinds: ["apiserver.k8s.io/v1beta1/EgressSelectorConfiguration"] } }),
    ).toBe('no kind "TracingConfiguration" is registered for version "apiserver.config.k8s.io/v1" in scheme "s"');
  });

  it("reads JSON and, as kube does, only the first YAML document", () => {
    expect(decodeConfig('{"apiVersion":"apiserver.config.k8s.io/v1","kind":"TracingConfiguration"}').gvk.kind).toBe(
      "TracingConfiguration",
    );
    const two = `${egress("- name: bogus\n  connection:\n    proxyProtocol: Direct\n")}---\nkind: Foo\n`;
    expect(decodeConfig(two).gvk.kind).toBe("EgressSelectorConfiguration");
  });
});

describe("validateConfig", () => {
  it("reports kube's egress selector errors", () => {
    const { object } = decodeConfig(egress("- name: bogus\n  connection:\n    proxyProtocol: HTTPConnect\n"));
    expect(validateConfig(object)).toEqual([
      "service.connection.transport: Required value: transport must be set for HTTPConnect",
      'service.connection: Unsupported value: "bogus": supported values: "cluster", "controlplane", "etcd"',
    ]);
  });

  it("reports kube's tracing errors", () => {
    const { object } = decodeConfig(
      'apiVersion: apiserver.config.k8s.io/v1\nkind: TracingConfiguration\nendpoint: "http://[::1"\nsamplingRatePerMillion: 2000000\n',
    );
    expect(validateConfig(object)).toEqual([
      "samplingRatePerMillion: Invalid value: 2000000: sampling rate per million must be less than or equal to one million",
      `endpoint: Invalid value: "http://[::1": parse "http://[::1": missing ']' in host`,
    ]);
    const ok = decodeConfig(
      "apiVersion: apiserver.config.k8s.io/v1\nkind: TracingConfiguration\nendpoint: localhost:4317\n",
    );
    expect(validateConfig(ok.object)).toEqual([]);
  });
});

describe("defaultConfig", () => {
  it("applies kube's SetDefaults functions", () => {
    const authz = decodeConfig(
      "apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\nauthorizers:\n- type: Webhook\n  name: w\n  webhook: {timeout: 3s}\n",
    );
    expect(defaultConfig(authz.object).authorizers).toEqual([
      {
        type: "Webhook",
        name: "w",
        webhook: {
          timeout: "3s",
          authorizedTTL: "5m0s",
          cacheAuthorizedRequests: true,
          unauthorizedTTL: "30s",
          cacheUnauthorizedRequests: true,
        },
      },
    ]);
    const pss = decodeConfig("apiVersion: pod-security.admission.config.k8s.io/v1\nkind: PodSecurityConfiguration\n");
    expect(defaultConfig(pss.object)).toMatchObject({
      defaults: {
        enforce: "privileged",
        "enforce-version": "latest",
        audit: "privileged",
        "audit-version": "latest",
        warn: "privileged",
        "warn-version": "latest",
      },
      exemptions: {},
    });
  });

  it("gives a KMS v1 provider a cache size, and a KMS v2 provider none", () => {
    const { object } = decodeConfig(
      "apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n- resources: [secrets]\n  providers:\n  - kms: {name: a, endpoint: unix:///a.sock}\n  - kms: {apiVersion: v2, name: b, endpoint: unix:///b.sock}\n",
    );
    const providers = (defaultConfig(object).resources as { providers: unknown[] }[])[0]?.providers;
    expect(providers).toEqual([
      { kms: { apiVersion: "v1", name: "a", endpoint: "unix:///a.sock", timeout: "3s", cachesize: 1000 } },
      { kms: { apiVersion: "v2", name: "b", endpoint: "unix:///b.sock", timeout: "3s" } },
    ]);
  });
});

describe("convertConfig", () => {
  const v1beta1 = decodeConfig(
    "apiVersion: apiserver.config.k8s.io/v1beta1\nkind: AuthorizationConfiguration\nauthorizers:\n- type: RBAC\n  name: rbac\n",
  ).object;

  it("converts between versions of a group", () => {
    expect(convertConfig(v1beta1, "apiserver.config.k8s.io/v1")).toEqual({
      apiVersion: "apiserver.config.k8s.io/v1",
      kind: "AuthorizationConfiguration",
      authorizers: [{ type: "RBAC", name: "rbac" }],
    });
  });

  it("refuses a version or group without the kind", () => {
    expect(() => convertConfig(v1beta1, "apiserver.config.k8s.io/v2")).toThrow(
      'no kind "AuthorizationConfiguration" is registered for version "apiserver.config.k8s.io/v2"',
    );
    const egressObject = decodeConfig(egress("  []\n")).object;
    expect(() => convertConfig(egressObject, "apiserver.config.k8s.io/v1")).toThrow(
      'no kind "EgressSelectorConfiguration" is registered for version "apiserver.config.k8s.io/v1"',
    );
  });
});

describe("admission plugin configurations read through the framework", () => {
  it("ResourceQuota's configuration is decoded strictly, as kube-apiserver's", async () => {
    const { loadQuotaConfiguration } = await import("../../../runtime/admission/resource-quota/quota-configuration.js");
    // kube-apiserver --admission-control-config-file with this plugin configuration stops with:
    // couldn't init admission plugin "ResourceQuota": strict decoding error: unknown field "limitedResources[0].bogus"
    const text =
      "apiVersion: apiserver.config.k8s.io/v1\nkind: ResourceQuotaConfiguration\nlimitedResources:\n- resource: pods\n  bogus: 1\n";
    expect(() => loadQuotaConfiguration({ text, source: "q.yaml" })).toThrow(
      'strict decoding error: unknown field "limitedResources[0].bogus"',
    );
  });
});

describe("--admission-control-config-file through the framework", () => {
  it("refuses what kube-apiserver v1.36.2 refuses, with its texts", async () => {
    const { readAdmissionConfiguration } = await import("../../../runtime/admission/admission-configuration.js");
    const { mkdtempSync, writeFileSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const dir = mkdtempSync(join(tmpdir(), "kapi-admission-config-"));
    const file = (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    };
    expect(() =>
      readAdmissionConfiguration(
        file("a.yaml", "apiVersion: apiserver.config.k8s.io/v1alpha1\nkind: AdmissionConfiguration\nplugins: []\n"),
      ),
    ).toThrow(
      'failed to read plugin config: no kind "AdmissionConfiguration" is registered for version "apiserver.config.k8s.io/v1alpha1" in scheme "pkg/server/options/admission.go:51"',
    );
    expect(() =>
      readAdmissionConfiguration(
        file("b.yaml", "apiVersion: apiserver.config.k8s.io/v1\nkind: TracingConfiguration\n"),
      ),
    ).toThrow("failed to read plugin config: unexpected type: *apiserver.TracingConfiguration");
  });
});
