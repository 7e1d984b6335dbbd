import { describe, expect, it } from "vitest";
import { defaultPullPolicy, findPodSpec, findPodTemplate, strategy } from "../../../runtime/strategies/pod-template.js";
import { createErrors, type Kind } from "./write-path.js";

const apply = (obj: Record<string, unknown>): Record<string, unknown> => {
  strategy.default?.(obj);
  return obj;
};

describe("pod-template strategy", () => {
  it.each([
    ["nginx", "Always"],
    ["nginx:latest", "Always"],
    ["registry:5000/team/nginx", "Always"],
    ["registry:5000/team/nginx:1.25", "IfNotPresent"],
    ["nginx@sha256:abc", "IfNotPresent"],
  ])("pull policy of %s is %s", (image, policy) => {
    expect(defaultPullPolicy(image)).toBe(policy);
  });

  it("finds the pod spec wherever it sits", () => {
    const containers: unknown[] = [];
    expect(findPodSpec({ spec: { containers } })?.isPod).toBe(true);
    expect(findPodSpec({ template: { spec: { containers } } })?.isPod).toBe(false);
    expect(findPodSpec({ spec: { template: { spec: { containers } } } })?.isPod).toBe(false);
    expect(
      findPodSpec({ spec: { jobTemplate: { spec: { template: { spec: { containers } } } } } })?.spec.containers,
    ).toBe(containers);
    expect(findPodSpec({ spec: { replicas: 1 } })).toBeUndefined();
  });

  it("Pod: pull policies, requests from limits, host ports with the host network", () => {
    const pod = apply({
      spec: {
        hostNetwork: true,
        containers: [
          { name: "a", image: "nginx", resources: { limits: { cpu: "1" } }, ports: [{ containerPort: 80 }] },
          {
            name: "b",
            image: "nginx:1",
            imagePullPolicy: "Never",
            resources: { limits: { cpu: "1" }, requests: { cpu: "0.5" } },
          },
        ],
      },
    });
    expect(pod.spec).toEqual({
      hostNetwork: true,
      containers: [
        {
          name: "a",
          image: "nginx",
          imagePullPolicy: "Always",
          resources: { limits: { cpu: "1" }, requests: { cpu: "1" } },
          ports: [{ containerPort: 80, hostPort: 80 }],
        },
        {
          name: "b",
          image: "nginx:1",
          imagePullPolicy: "Never",
          resources: { limits: { cpu: "1" }, requests: { cpu: "0.5" } },
        },
      ],
    });
  });

  it("templates: no requests from limits", () => {
    const tpl = apply({ template: { spec: { containers: [{ image: "x:1", resources: { limits: { cpu: "1" } } }] } } });
    expect(tpl).toEqual({
      template: {
        spec: { containers: [{ image: "x:1", imagePullPolicy: "IfNotPresent", resources: { limits: { cpu: "1" } } }] },
      },
    });
  });

  // Recorded from kube-apiserver v1.36.2 (deployments and pods, dry run): [sent, stored].
  it.each([
    [{ serviceAccount: "foo" }, { serviceAccount: "foo", serviceAccountName: "foo" }],
    [
      { serviceAccountName: "bar", serviceAccount: "foo" },
      { serviceAccount: "bar", serviceAccountName: "bar" },
    ],
    [
      { serviceAccountName: "", serviceAccount: "foo" },
      { serviceAccount: "foo", serviceAccountName: "foo" },
    ],
    [{ serviceAccountName: "bar" }, { serviceAccount: "bar", serviceAccountName: "bar" }],
    [{}, {}],
  ])("the deprecated serviceAccount alias: %j", (given, expected) => {
    const d = apply({ spec: { template: { spec: { ...given, containers: [] } } } });
    const spec = ((d.spec as Record<string, unknown>).template as { spec: Record<string, unknown> }).spec;
    expect(spec).toEqual({ ...expected, containers: [] });
  });

  it.each([
    [{}, { type: "RollingUpdate", rollingUpdate: { maxUnavailable: "25%", maxSurge: "25%" } }],
    [
      { rollingUpdate: { maxSurge: 1 } },
      { type: "RollingUpdate", rollingUpdate: { maxSurge: 1, maxUnavailable: "25%" } },
    ],
    [{ type: "Recreate" }, { type: "Recreate" }],
  ])("rollout strategy %j", (given, expected) => {
    const d = apply({ spec: { strategy: given, template: { spec: { containers: [] } } } });
    expect((d.spec as Record<string, unknown>).strategy).toEqual(expected);
  });
});

describe("pod-template strategy: validation", () => {
  const PodTemplate: Kind = ["", "v1", "PodTemplate"];

  it("checks the embedded template on the template's path", () => {
    const tpl = {
      metadata: { name: "t", namespace: "default" },
      template: {
        metadata: { labels: { "-bad": "x" } },
        spec: { containers: [{ name: "c" }], ephemeralContainers: [] },
      },
    };
    expect(createErrors(PodTemplate, tpl)).toEqual([
      `template.labels: Invalid value: "-bad": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
      "template.spec.containers[0].image: Required value",
    ]);
  });

  it("finds the template of any embedding object", () => {
    expect(findPodTemplate({ spec: { template: { spec: { containers: [] } } } })?.path).toBe("spec.template");
    expect(findPodTemplate({ spec: { containers: [] } })).toBeUndefined();
  });
});
