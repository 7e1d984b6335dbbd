// The pod plugins' configurations and flags: PodTolerationRestriction's Configuration with kube-apiserver
// v1.36.2's startup errors (recorded from a kube-apiserver started with each file), PodNodeSelector's file,
// AlwaysPullImages' validating step, and the toleration-seconds flags of `kapi serve`.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { AdmissionAttributes } from "../../../../runtime/admission/admission.js";
import { alwaysPullImages } from "../../../../runtime/admission/pod-plugins/always-pull-images.js";
import { readPodNodeSelectorConfig } from "../../../../runtime/admission/pod-plugins/pod-node-selector.js";
import { loadPodTolerationRestrictionConfig } from "../../../../runtime/admission/pod-plugins/pod-toleration-restriction-config.js";
import { parseServeFlags } from "../../../../runtime/cli/serve-flags.js";
import { startServer } from "../../../../runtime/index.js";
import { builtinKind } from "../../../../runtime/registry/kinds.js";

const dir = mkdtempSync(join(tmpdir(), "kapi-pod-plugin-config-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function ptr(body: string): string {
  return `apiVersion: podtolerationrestriction.admission.k8s.io/v1alpha1\nkind: Configuration\n${body}`;
}

describe("PodTolerationRestriction's configuration", () => {
  it("reads default and whitelist; none means both empty", () => {
    expect(loadPodTolerationRestrictionConfig(undefined)).toEqual({ default: [], whitelist: [] });
    expect(
      loadPodTolerationRestrictionConfig(
        ptr("default:\n- {key: a, operator: Exists, effect: NoSchedule, extra: 1}\nwhitelist:\n- operator: Exists\n"),
      ),
    ).toEqual({
      default: [{ key: "a", operator: "Exists", effect: "NoSchedule" }],
      whitelist: [{ operator: "Exists" }],
    });
  });

  it("fails with kube's texts", () => {
    expect(() =>
      loadPodTolerationRestrictionConfig(
        ptr(
          'default:\n- key: "bad key"\n  operator: Foo\n  value: x\n  effect: Bogus\n  tolerationSeconds: 5\nwhitelist:\n- operator: Equal\n  value: "a b"\n',
        ),
      ),
    ).toThrow(
      `invalid config: [podtolerationrestriction.default[0].key: Invalid value: "bad key": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') podtolerationrestriction.default[0].effect: Invalid value: "Bogus": effect must be 'NoExecute' when \`tolerationSeconds\` is set podtolerationrestriction.default[0].operator: Unsupported value: "Foo": supported values: "Equal", "Exists" podtolerationrestriction.default[0].effect: Unsupported value: "Bogus": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute" podtolerationrestriction.whitelist[0].operator: Invalid value: "Equal": operator must be Exists when \`key\` is empty, which means "match all values and all keys" podtolerationrestriction.whitelist[0].operator: Invalid value: "a b": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')]`,
    );
    expect(() => loadPodTolerationRestrictionConfig(ptr('default:\n- key: k\n  tolerationSeconds: "5"\n'))).toThrow(
      "json: cannot unmarshal string into Go struct field Toleration.default.tolerationSeconds of type int64",
    );
    expect(() =>
      loadPodTolerationRestrictionConfig(
        "apiVersion: podtolerationrestriction.admission.k8s.io/v1alpha1\nkind: Other\n",
      ),
    ).toThrow(
      'no kind "Other" is registered for version "podtolerationrestriction.admission.k8s.io/v1alpha1" in scheme "pkg/admission/podtolerationrestriction/config.go:32"',
    );
  });

  it("stops the start as kube-apiserver does", async () => {
    writeFileSync(join(dir, "ptr.yaml"), ptr('default:\n- key: k\n  tolerationSeconds: "5"\n'));
    writeFileSync(
      join(dir, "admission.yaml"),
      "apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: PodTolerationRestriction\n  path: ptr.yaml\n",
    );
    await expect(
      startServer({
        controllers: false,
        admission: { enablePlugins: ["PodTolerationRestriction"], configFile: join(dir, "admission.yaml") },
      }),
    ).rejects.toThrow(
      'couldn\'t init admission plugin "PodTolerationRestriction": json: cannot unmarshal string into Go struct field Toleration.default.tolerationSeconds of type int64',
    );
  });
});

describe("PodNodeSelector's configuration", () => {
  it("reads the map from every document, the field name in any case, skipping what does not decode", () => {
    expect(readPodNodeSelectorConfig(undefined)).toEqual({});
    expect(
      readPodNodeSelectorConfig(
        "podNodeSelectorPluginConfig:\n  clusterDefaultNodeSelector: env=dev\n---\nPodNodeSelectorPluginConfig:\n  ns1: a=b\n---\npodNodeSelectorPluginConfig: [1]\n",
      ),
    ).toEqual({ clusterDefaultNodeSelector: "env=dev", ns1: "a=b" });
  });
});

describe("AlwaysPullImages' validating step", () => {
  const pods = builtinKind("", "v1", "pods");
  const attributes = (spec: object): AdmissionAttributes => ({
    operation: "CREATE",
    kind: pods,
    namespace: "ns",
    name: "p",
    subresource: undefined,
    object: { apiVersion: "v1", kind: "Pod", metadata: { name: "p" }, spec },
    dryRun: false,
  });

  it("refuses a pull policy a later plugin changed, as one aggregated plain error", () => {
    const plugin = alwaysPullImages();
    const spec = {
      initContainers: [{ name: "i", image: "busybox", imagePullPolicy: "Always" }],
      containers: [{ name: "c", image: "nginx", imagePullPolicy: "Never" }],
      volumes: [{ name: "v", image: { reference: "busybox", pullPolicy: "IfNotPresent" } }],
    };
    let caught: unknown;
    try {
      plugin.validate?.(attributes(spec));
    } catch (error) {
      caught = error;
    }
    expect((caught as { status: unknown }).status).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message:
        '[pods "p" is forbidden: spec.containers[0].imagePullPolicy: Unsupported value: "Never": supported values: "Always", pods "p" is forbidden: spec.volumes[0].image.pullPolicy: Unsupported value: "IfNotPresent": supported values: "Always"]',
      code: 500,
    });
    const fixed = attributes(spec);
    plugin.mutate?.(fixed);
    expect(() => plugin.validate?.(fixed)).not.toThrow();
  });
});

describe("the toleration-seconds flags", () => {
  it("reads kube-apiserver's two flags", () => {
    expect(
      parseServeFlags(["--default-not-ready-toleration-seconds", "120", "--default-unreachable-toleration-seconds=-5"])
        .admission,
    ).toEqual({ defaultNotReadyTolerationSeconds: 120, defaultUnreachableTolerationSeconds: -5 });
    expect(() => parseServeFlags(["--default-not-ready-toleration-seconds=5m"])).toThrow(
      'invalid argument "5m" for "--default-not-ready-toleration-seconds" flag: strconv.ParseInt: parsing "5m": invalid syntax',
    );
  });
});
