import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readAdmissionConfiguration } from "../../../runtime/admission/admission-configuration.js";

function dir(): string {
  return mkdtempSync(join(tmpdir(), "kapi-admission-config-"));
}

describe("readAdmissionConfiguration", () => {
  it("reads each plugin's file (relative to the configuration's directory) or embedded configuration", () => {
    const d = dir();
    writeFileSync(join(d, "limits.yaml"), "kind: Configuration\n");
    const path = join(d, "admission.yaml");
    writeFileSync(
      path,
      [
        "apiVersion: apiserver.config.k8s.io/v1",
        "kind: AdmissionConfiguration",
        "plugins:",
        "- name: EventRateLimit",
        "  path: limits.yaml",
        "- name: ValidatingAdmissionWebhook",
        "  configuration:",
        "    apiVersion: apiserver.config.k8s.io/v1",
        "    kind: WebhookAdmissionConfiguration",
        "    kubeConfigFile: /etc/webhooks.kubeconfig",
        "- name: NamespaceLifecycle",
      ].join("\n"),
    );
    const config = readAdmissionConfiguration(path);
    expect(config.get("EventRateLimit")).toEqual({ text: "kind: Configuration\n", source: join(d, "limits.yaml") });
    expect(JSON.parse(config.get("ValidatingAdmissionWebhook")?.text ?? "")).toEqual({
      apiVersion: "apiserver.config.k8s.io/v1",
      kind: "WebhookAdmissionConfiguration",
      kubeConfigFile: "/etc/webhooks.kubeconfig",
    });
    expect(config.has("NamespaceLifecycle")).toBe(false);
  });

  it("takes the older apiserver.k8s.io/v1alpha1 form", () => {
    const path = join(dir(), "admission.json");
    writeFileSync(
      path,
      JSON.stringify({
        apiVersion: "apiserver.k8s.io/v1alpha1",
        kind: "AdmissionConfiguration",
        plugins: [{ name: "EventRateLimit", configuration: { kind: "Configuration" } }],
      }),
    );
    expect(readAdmissionConfiguration(path).get("EventRateLimit")?.text).toBe('{"kind":"Configuration"}');
  });

  it("takes a legacy ImagePolicyWebhook file as that plugin's configuration", () => {
    const path = join(dir(), "image-policy.yaml");
    writeFileSync(path, "imagePolicy:\n  kubeConfigFile: /x\n  defaultAllow: true\n");
    expect([...readAdmissionConfiguration(path).keys()]).toEqual(["ImagePolicyWebhook"]);
  });

  it("fails as kube-apiserver's start fails", () => {
    const d = dir();
    expect(() => readAdmissionConfiguration(join(d, "missing.yaml"))).toThrow(
      `failed to read plugin config: unable to read admission control configuration from "${join(d, "missing.yaml")}" [open ${join(d, "missing.yaml")}: no such file or directory]`,
    );
    const unknownField = join(d, "unknown.yaml");
    writeFileSync(unknownField, "apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugin: []\n");
    expect(() => readAdmissionConfiguration(unknownField)).toThrow(
      'failed to read plugin config: strict decoding error: unknown field "plugin"',
    );
    const noKind = join(d, "nokind.yaml");
    writeFileSync(noKind, "apiVersion: apiserver.config.k8s.io/v1\nplugins: []\n");
    expect(() => readAdmissionConfiguration(noKind)).toThrow("failed to read plugin config: Object 'Kind' is missing");
    const badPath = join(d, "badpath.yaml");
    writeFileSync(
      badPath,
      "apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: EventRateLimit\n  path: nope.yaml\n",
    );
    expect(() => readAdmissionConfiguration(badPath)).toThrow(`admission plugin configuration ${join(d, "nope.yaml")}`);
  });
});
