import { describe, expect, it } from "vitest";
import { featureGateSpecs } from "../../../generated/feature-gates.js";
import { FeatureGates, parseFeatureGates } from "../../../runtime/features/feature-gates.js";

describe("the v1.36 gate table", () => {
  it("holds kube-apiserver v1.36.2's gates, stages and defaults (checked against its kubernetes_feature_enabled)", () => {
    // The reference reports 245 gates; three of them are OpenShift's own (MinimumKubeletVersion,
    // RouteExternalCertificate, StoragePerformantSecurityPolicy), which upstream Kubernetes does not have.
    expect(featureGateSpecs).toHaveLength(242);
    const byName = new Map(featureGateSpecs.map((s) => [s.name, s]));
    expect(byName.get("WatchList")).toEqual({ name: "WatchList", default: true, stage: "BETA", lockToDefault: false });
    expect(byName.get("APIServerTracing")).toEqual({
      name: "APIServerTracing",
      default: true,
      stage: "GA",
      lockToDefault: true,
    });
    expect(byName.get("AllAlpha")).toMatchObject({ default: false, stage: "ALPHA" });
  });
});

describe("parseFeatureGates", () => {
  it("reads kube's form: pairs, an optional kube: prefix, repeated flags", () => {
    expect(parseFeatureGates(["kube:WatchList=false,CBORServingAndStorage=true", "AllBeta=true"])).toEqual({
      overrides: { WatchList: false, CBORServingAndStorage: true, AllBeta: true },
      warnings: [],
    });
  });

  it("fails as kube-apiserver fails the start", () => {
    expect(() => parseFeatureGates(["APIServerTracing=false"])).toThrow(
      "cannot set feature gate APIServerTracing to false, feature is locked to true",
    );
    expect(() => parseFeatureGates(["APIServerTracing=maybe"])).toThrow(
      'invalid value of APIServerTracing=maybe, err: strconv.ParseBool: parsing "maybe": invalid syntax',
    );
    expect(() => parseFeatureGates(["APIServerTracing"])).toThrow("missing bool value for APIServerTracing");
    expect(() => parseFeatureGates(["foo:APIServerTracing=true"])).toThrow("component not registered: foo");
  });

  it("refuses a gate on while a gate it depends on is off, as kube-apiserver v1.36.2 does", () => {
    // kube: "command failed" err="UnknownVersionInteroperabilityProxy is enabled, but depends on features that
    // are disabled: [APIServerIdentity]"
    expect(() => parseFeatureGates(["APIServerIdentity=false"])).toThrow(
      "UnknownVersionInteroperabilityProxy is enabled, but depends on features that are disabled: [APIServerIdentity]",
    );
    expect(parseFeatureGates(["APIServerIdentity=false,UnknownVersionInteroperabilityProxy=false"]).overrides).toEqual({
      APIServerIdentity: false,
      UnknownVersionInteroperabilityProxy: false,
    });
    // Several: Go's aggregate, `[e1, e2, …]` (kube's order is its map's, random; kapi's by gate name).
    expect(() => parseFeatureGates(["NodeDeclaredFeatures=false"])).toThrow(
      "[ExtendWebSocketsToKubelet is enabled, but depends on features that are disabled: [NodeDeclaredFeatures], " +
        "InPlacePodLevelResourcesVerticalScaling is enabled, but depends on features that are disabled: [NodeDeclaredFeatures], " +
        "InPlacePodVerticalScalingInitContainers is enabled, but depends on features that are disabled: [NodeDeclaredFeatures], " +
        "RestartAllContainersOnContainerExits is enabled, but depends on features that are disabled: [NodeDeclaredFeatures]]",
    );
    expect(() => new FeatureGates({ APIServerIdentity: false })).toThrow("depends on features that are disabled");
    // Every gate on, or every beta one: the dependencies hold.
    expect(() => parseFeatureGates(["AllAlpha=true,AllBeta=true"])).not.toThrow();
    expect(() => parseFeatureGates(["AllBeta=true"])).not.toThrow();
  });

  it("warns, as kube logs, about unknown, GA and deprecated gates", () => {
    expect(parseFeatureGates(["Foo=true,AllowServiceExternalIPs=true,AllowDNSOnlyNodeCSR=true"])).toEqual({
      overrides: { AllowServiceExternalIPs: true, AllowDNSOnlyNodeCSR: true },
      warnings: [
        "unrecognized feature gate: Foo",
        'Warning: setting GA feature gate. It will be removed in a future release. featureGate="AllowServiceExternalIPs" value=true',
        'Warning: setting deprecated feature gate. It will be removed in a future release. featureGate="AllowDNSOnlyNodeCSR" value=true',
      ],
    });
  });
});

describe("FeatureGates", () => {
  it("answers the defaults, the overrides, and AllAlpha/AllBeta for the gates nobody set", () => {
    expect(new FeatureGates().enabled("WatchList")).toBe(true);
    expect(new FeatureGates({ WatchList: false }).enabled("WatchList")).toBe(false);
    const allAlpha = new FeatureGates({ AllAlpha: true, CBORServingAndStorage: false });
    expect(allAlpha.enabled("APIServingWithRoutine")).toBe(true);
    expect(allAlpha.enabled("CBORServingAndStorage")).toBe(false);
    expect(allAlpha.enabled("WatchList")).toBe(true);
    expect(() => new FeatureGates().enabled("NoSuchGate")).toThrow(/not a kube-apiserver v1.36 feature gate/);
    expect(() => new FeatureGates({ NoSuchGate: true })).toThrow("unrecognized feature gate: NoSuchGate");
  });
});
