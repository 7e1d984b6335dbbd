// Maintenance tool: writes data/feature-gates.yaml, kube-apiserver v1.36's feature gates (name, default,
// stage, lock) as declared in Kubernetes' source. Usage: npm run import-feature-gates -- <kubernetes source dir>
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { stringify } from "yaml";
import { gatesAt } from "./import/feature-gate-source.js";

/** The gate files kube-apiserver registers, in the order their specs win (the special gates first). */
const gateFiles = [
  "staging/src/k8s.io/component-base/featuregate/feature_gate.go",
  "pkg/features/kube_features.go",
  "staging/src/k8s.io/apiserver/pkg/features/kube_features.go",
  "staging/src/k8s.io/apiextensions-apiserver/pkg/features/kube_features.go",
  "staging/src/k8s.io/client-go/features/known_features.go",
  "staging/src/k8s.io/component-base/logs/api/v1/kube_features.go",
  "staging/src/k8s.io/component-base/metrics/features/kube_features.go",
  "staging/src/k8s.io/component-base/zpages/features/kube_features.go",
  "staging/src/k8s.io/controller-manager/pkg/features/kube_features.go",
];

const kubeVersion = "1.36";
const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const sourceDir = process.argv[2];
if (sourceDir === undefined) {
  console.error("usage: npm run import-feature-gates -- <kubernetes source dir>");
  process.exit(2);
}
const gates = gatesAt(
  gateFiles.map((f) => readFileSync(join(resolve(sourceDir), f), "utf8")),
  kubeVersion,
);
const header = `# kube-apiserver v${kubeVersion}'s feature gates, each with its spec at v${kubeVersion}.\n# Written by npm run import-feature-gates from Kubernetes' source; npm run generate turns it into\n# generated/feature-gates.ts.\n`;
writeFileSync(join(root, "data/feature-gates.yaml"), header + stringify({ version: kubeVersion, gates }));
console.log(`imported ${gates.length} feature gates`);
