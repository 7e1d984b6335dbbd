// Component configuration kinds (kube-scheduler, kube-proxy, kube-controller-manager, cloud-controller-manager,
// leader migration) read through the configuration-file framework. The expected defaults under
// test/data/config/ are kube v1.36's defaulting of an empty document with default feature gates
// (pkg/scheduler/apis/config/v1/defaults.go and default_plugins.go, pkg/proxy/apis/config/v1alpha1/defaults.go,
// pkg/controller/apis/config/v1alpha1/defaults.go and each controller's defaults.go), fields Go leaves at their
// zero value omitted; the error texts are kube's validation texts.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { decodeConfig, defaultConfig, validateConfig } from "../../../runtime/config/config-document.js";

function read(doc: string): Record<string, unknown> {
  return defaultConfig(decodeConfig(doc).object);
}

function expected(file: string): unknown {
  return JSON.parse(readFileSync(new URL(`../../data/config/${file}`, import.meta.url), "utf8"));
}

const scheduler = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n";
const proxy = "apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\n";
const migration = "apiVersion: controllermanager.config.k8s.io/v1alpha1\nkind: LeaderMigrationConfiguration\n";

describe("component configuration defaults", () => {
  it.each([
    [scheduler, "kube-scheduler-defaults.json"],
    [proxy, "kube-proxy-defaults.json"],
    [
      "apiVersion: kubecontrollermanager.config.k8s.io/v1alpha1\nkind: KubeControllerManagerConfiguration\n",
      "kube-controller-manager-defaults.json",
    ],
    [
      "apiVersion: cloudcontrollermanager.config.k8s.io/v1alpha1\nkind: CloudControllerManagerConfiguration\n",
      "cloud-controller-manager-defaults.json",
    ],
  ])("an empty document defaults as kube's defaulters do (%#)", (doc, file) => {
    const object = read(doc);
    expect(object).toEqual(expected(file));
    expect(validateConfig(object)).toEqual([]);
  });

  it("keeps what a document sets and fills the rest", () => {
    const object = read(`${scheduler}parallelism: 4\nleaderElection:\n  leaderElect: false\n`);
    expect(object.parallelism).toBe(4);
    expect(object.leaderElection).toEqual({
      leaderElect: false,
      leaseDuration: "15s",
      renewDeadline: "10s",
      retryPeriod: "2s",
      resourceLock: "leases",
      // SetDefaults_KubeSchedulerConfiguration names the lock whenever the name or namespace is empty.
      resourceNamespace: "kube-system",
      resourceName: "kube-scheduler",
    });
  });

  it("defaults a plugin's args document", () => {
    const args = read("apiVersion: kubescheduler.config.k8s.io/v1\nkind: VolumeBindingArgs\n");
    expect(args.bindTimeoutSeconds).toBe(600);
    const fit = read("apiVersion: kubescheduler.config.k8s.io/v1\nkind: NodeResourcesFitArgs\n");
    expect(fit.scoringStrategy).toEqual({
      type: "LeastAllocated",
      resources: [
        { name: "cpu", weight: 1 },
        { name: "memory", weight: 1 },
      ],
    });
  });
});

describe("component configuration validation", () => {
  it("gives kube-scheduler's texts", () => {
    const errors = validateConfig(
      read(`${scheduler}parallelism: 0\npercentageOfNodesToScore: 101\npodInitialBackoffSeconds: 0\n`),
    );
    expect(errors).toContain("parallelism: Invalid value: 0: should be an integer value greater than zero");
    expect(errors).toContain("percentageOfNodesToScore: Invalid value: 101: not in valid range [0-100]");
    expect(errors).toContain("podInitialBackoffSeconds: Invalid value: 0: must be greater than 0");
  });

  it("refuses cross-field mistakes at kube's field with kube's message", () => {
    const errors = validateConfig(
      read(
        `${scheduler}podInitialBackoffSeconds: 5\npodMaxBackoffSeconds: 2\n` +
          "leaderElection: {leaseDuration: 5s, renewDeadline: 10s, resourceLock: endpoints}\n" +
          "extenders: [{urlPrefix: a, bindVerb: bind}, {urlPrefix: b, bindVerb: bind, prioritizeVerb: p}]\n",
      ),
    );
    // pkg/scheduler/apis/config/validation and component-base's ValidateLeaderElectionConfiguration: the
    // lease check reports the renew deadline as its value; default leader election is on.
    expect(errors).toEqual([
      'leaderElection.leaseDuration: Invalid value: "10s": must be greater than `RenewDeadline`',
      'leaderElection.resourceLock: Invalid value: "endpoints": resourceLock value must be "leases"',
      "podMaxBackoffSeconds: Invalid value: 2: must be greater than or equal to PodInitialBackoffSeconds",
      "extenders[1].weight: Invalid value: 0: must have a positive weight applied to it",
      'extenders: Invalid value: "found 2 extenders implementing bind": only one extender can implement bind',
    ]);
  });

  it("validates plugin args", () => {
    const v = (kind: string, body: string) =>
      validateConfig(read(`apiVersion: kubescheduler.config.k8s.io/v1\nkind: ${kind}\n${body}`));
    expect(v("DefaultPreemptionArgs", "minCandidateNodesPercentage: 101\n")).toEqual([
      "minCandidateNodesPercentage: Invalid value: 101: not in valid range [0, 100]",
    ]);
    expect(v("VolumeBindingArgs", "bindTimeoutSeconds: -1\n")).toEqual([
      "bindTimeoutSeconds: Invalid value: -1: invalid BindTimeoutSeconds, should not be a negative value",
    ]);
    expect(v("NodeResourcesFitArgs", "ignoredResourceGroups: [example.com/foo]\n")).toEqual([
      `ignoredResourceGroups[0]: Invalid value: "example.com/foo": resource group name can't contain '/'`,
    ]);
    expect(v("InterPodAffinityArgs", "hardPodAffinityWeight: 101\n")).toEqual([
      "hardPodAffinityWeight: Invalid value: 101: not in valid range [0, 100]",
    ]);
  });

  it("gives kube-proxy's masquerade bit range", () => {
    expect(validateConfig(read(`${proxy}iptables: {masqueradeBit: 32}\nnftables: {masqueradeBit: -1}\n`))).toEqual([
      "iptables.masqueradeBit: Invalid value: 32: must be within the range [0, 31]",
      "nftables.masqueradeBit: Invalid value: -1: must be within the range [0, 31]",
    ]);
  });

  it("gives leader migration's texts", () => {
    expect(validateConfig(read(`${migration}leaderName: cloud\nresourceLock: configmaps\n`))).toEqual([
      `resourceLock: Invalid value: "configmaps": resource Lock must be one of 'leases' or 'endpoints'`,
    ]);
    expect(validateConfig(read(`${migration}resourceLock: leases\n`))).toEqual([
      "leaderName: Required value: leaderName must be set for LeaderMigrationConfiguration",
    ]);
    expect(
      validateConfig(read(`${migration}leaderName: cloud\nresourceLock: leases\ncontrollerLeaders: [{name: route}]\n`)),
    ).toContain("controllerLeaders[0].component: Required value");
  });
});
