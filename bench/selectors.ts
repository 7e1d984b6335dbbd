// Label and field selector matching throughput over 10k synthetic pods, in matches per second.
// Usage: npx tsx bench/selectors.ts [rounds]
import { parseFieldSelector } from "../runtime/selection/field-selector.js";
import { parseLabelSelector } from "../runtime/selection/parse-label-selector.js";
import { fieldSetOf } from "../runtime/selection/selectable-field-set.js";

const rounds = Number(process.argv[2] ?? 20);
const tiers = ["front", "back", "cache"];
const pods = Array.from({ length: 10_000 }, (_, i) => ({
  metadata: {
    name: `pod-${i}`,
    namespace: `ns-${i % 10}`,
    labels: { app: `app-${i % 50}`, tier: tiers[i % 3] ?? "", shard: String(i % 100), release: "stable" },
  },
  spec: { nodeName: `node-${i % 20}` },
  status: { phase: i % 7 === 0 ? "Pending" : "Running" },
}));
const fieldSets = pods.map((p) => fieldSetOf(p, ["spec.nodeName", "status.phase"]));

function measure(name: string, selector: string, match: (i: number) => boolean): void {
  let hits = 0;
  const start = performance.now();
  for (let r = 0; r < rounds; r++) for (let i = 0; i < pods.length; i++) if (match(i)) hits++;
  const seconds = (performance.now() - start) / 1000;
  const rate = (rounds * pods.length) / seconds;
  console.log(`${name.padEnd(8)} ${selector.padEnd(58)} ${(rate / 1e6).toFixed(2)}M matches/s (${hits / rounds} hits)`);
}

for (const s of ["app=app-7", "tier in (front,back),release,!canary", "shard>50,tier notin (cache),app!=app-1"]) {
  const parsed = parseLabelSelector(s);
  if (!parsed.ok) throw new Error(parsed.error);
  measure("labels", s, (i) => parsed.selector.matches(pods[i]?.metadata.labels));
}
for (const s of ["metadata.namespace=ns-3", "spec.nodeName=node-4,status.phase!=Pending"]) {
  const parsed = parseFieldSelector(s);
  if (!parsed.ok) throw new Error(parsed.error);
  measure("fields", s, (i) => parsed.selector.matches(fieldSets[i] ?? {}));
}
const withSets = parseFieldSelector("spec.nodeName=node-4,status.phase!=Pending");
if (!withSets.ok) throw new Error(withSets.error);
const selector = withSets.selector;
measure("fields+", "(building each object's field set while matching)", (i) =>
  selector.matches(fieldSetOf(pods[i], ["spec.nodeName", "status.phase"])),
);
