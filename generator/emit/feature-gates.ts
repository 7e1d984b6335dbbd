// generated/feature-gates.ts: kube-apiserver's feature gates as data (data/feature-gates.yaml, written by
// `npm run import-feature-gates`), for runtime/features/ and the kubernetes_feature_enabled metric.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { type Emitter, generatedHeader } from "./emitter.js";
import { tsLiteral } from "./ts-literal.js";

export const featureGatesPath = "feature-gates.ts";
const source = "data/feature-gates.yaml";

export type FeatureStage = "ALPHA" | "BETA" | "GA" | "DEPRECATED" | "PREALPHA";

export interface FeatureGateData {
  version: string;
  gates: { name: string; default: boolean; stage: FeatureStage; lockToDefault: boolean; dependsOn?: string[] }[];
}

const stages = new Set<string>(["ALPHA", "BETA", "GA", "DEPRECATED", "PREALPHA"]);

/** The data file's content, checked: a bad entry stops the generator rather than reaching the server. */
export function readFeatureGateData(text: string): FeatureGateData {
  const data = parse(text) as FeatureGateData;
  if (typeof data?.version !== "string" || !Array.isArray(data.gates)) {
    throw new Error(`${source}: wants version and gates`);
  }
  for (const gate of data.gates) {
    if (
      typeof gate.name !== "string" ||
      typeof gate.default !== "boolean" ||
      !stages.has(gate.stage) ||
      typeof gate.lockToDefault !== "boolean" ||
      (gate.dependsOn !== undefined &&
        (!Array.isArray(gate.dependsOn) || gate.dependsOn.some((d) => typeof d !== "string")))
    ) {
      throw new Error(`${source}: bad gate ${JSON.stringify(gate)}`);
    }
  }
  const names = new Set(data.gates.map((g) => g.name));
  for (const gate of data.gates) {
    for (const dep of gate.dependsOn ?? []) {
      if (!names.has(dep)) throw new Error(`${source}: ${gate.name} depends on unknown gate ${dep}`);
    }
  }
  return data;
}

export function createFeatureGatesEmitter(data: FeatureGateData): Emitter {
  return {
    name: "feature-gates",
    emit() {
      const gates = [...data.gates].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      const content = `${generatedHeader([source])}
export type FeatureStage = "ALPHA" | "BETA" | "GA" | "DEPRECATED" | "PREALPHA";

export interface FeatureGateSpec {
  name: string;
  /** Whether the gate is on unless --feature-gates says otherwise. */
  default: boolean;
  /** kube's PreRelease; the kubernetes_feature_enabled metric writes GA as an empty stage. */
  stage: FeatureStage;
  /** --feature-gates may not set it to anything but its default. */
  lockToDefault: boolean;
  /** Gates that must be on while this one is on (kube refuses --feature-gates that break this). */
  dependsOn?: readonly string[];
}

/** The Kubernetes version the specs are taken at. */
export const featureGateVersion = ${JSON.stringify(data.version)};

/** Every gate kube-apiserver v${data.version} knows, by name. */
export const featureGateSpecs: readonly FeatureGateSpec[] = ${tsLiteral(gates)};
`;
      return { files: [{ path: featureGatesPath, content }] };
    },
  };
}

export const featureGatesEmitter: Emitter = createFeatureGatesEmitter(
  readFeatureGateData(readFileSync(fileURLToPath(new URL(`../../${source}`, import.meta.url)), "utf8")),
);
