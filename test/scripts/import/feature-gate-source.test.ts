import { describe, expect, it } from "vitest";
import { gatesAt } from "../../../scripts/import/feature-gate-source.js";

const core = `
const (
	allAlphaGate Feature = "AllAlpha"
)
var defaultFeatures = map[Feature]VersionedSpecs{
		allAlphaGate: {{Default: false, PreRelease: Alpha, Version: version.MajorMinor(0, 0)}},
}
`;

const kube = `
const (
	// a comment
	WidgetGate featuregate.Feature = "WidgetGate"
	Plain = "Plain"
	Wrapped = featuregate.Feature("Wrapped")
)
var defaultVersionedKubernetesFeatureGates = map[featuregate.Feature]featuregate.VersionedSpecs{
	WidgetGate: {
		{Version: version.MustParse("1.30"), Default: false, PreRelease: featuregate.Alpha},
		{Version: version.MustParse("1.33"), Default: true, PreRelease: featuregate.Beta},
		{Version: version.MustParse("1.36"), Default: true, PreRelease: featuregate.GA, LockToDefault: true}, // remove in 1.38
	},
	Plain: {
		{Version: version.MustParse("1.37"), Default: false, PreRelease: featuregate.Alpha},
	},
	generic.Wrapped: {
		{Version: version.MustParse("1.20"), Default: true, PreRelease: featuregate.Deprecated},
	},
}
var deps = map[featuregate.Feature][]featuregate.Feature{
	WidgetGate: {},
}
`;

describe("gatesAt", () => {
  it("takes each gate's last spec not newer than the version, and leaves out gates not yet introduced", () => {
    expect(gatesAt([core, kube], "1.36")).toEqual([
      { name: "AllAlpha", default: false, stage: "ALPHA", lockToDefault: false },
      { name: "WidgetGate", default: true, stage: "GA", lockToDefault: true },
      { name: "Wrapped", default: true, stage: "DEPRECATED", lockToDefault: false },
    ]);
    expect(gatesAt([kube], "1.35")).toContainEqual({
      name: "WidgetGate",
      default: true,
      stage: "BETA",
      lockToDefault: false,
    });
  });
});

describe("gate dependencies", () => {
  const dependent = `
const (
	Base featuregate.Feature = "Base"
	Other featuregate.Feature = "Other"
	Needy featuregate.Feature = "Needy"
)
var defaultVersionedKubernetesFeatureGates = map[featuregate.Feature]featuregate.VersionedSpecs{
	Base: {
		{Version: version.MustParse("1.30"), Default: true, PreRelease: featuregate.Beta},
	},
	generic.Other: {
		{Version: version.MustParse("1.30"), Default: true, PreRelease: featuregate.Beta},
	},
	Needy: {
		{Version: version.MustParse("1.30"), Default: true, PreRelease: featuregate.Beta},
	},
}
var defaultKubernetesFeatureGateDependencies = map[featuregate.Feature][]featuregate.Feature{
	Base: {},
	Needy: {Base, featuregate.Feature(generic.Other)}, // a comment
}
`;

  it("reads kube's dependency map into dependsOn, by gate name", () => {
    expect(gatesAt([dependent], "1.36")).toContainEqual({
      name: "Needy",
      default: true,
      stage: "BETA",
      lockToDefault: false,
      dependsOn: ["Base", "Other"],
    });
    expect(gatesAt([dependent], "1.36").find((g) => g.name === "Base")).not.toHaveProperty("dependsOn");
  });

  it("refuses a dependency on a gate the sources do not declare", () => {
    const missing = dependent
      .replace(
        'Needy featuregate.Feature = "Needy"',
        'Needy featuregate.Feature = "Needy"\n\tMissing featuregate.Feature = "Missing"',
      )
      .replace("Needy: {Base,", "Needy: {Missing,");
    expect(() => gatesAt([missing], "1.36")).toThrow("Needy depends on unknown feature gate Missing");
  });
});
