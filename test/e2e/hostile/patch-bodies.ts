// Hostile patches of every type: JSON patches with bad operations, paths and amplifying copies; merge and
// strategic merge patches with wrong types, directives and nulls; apply configurations that are mutated
// objects in YAML or JSON.
import type { Json } from "./corpus.js";
import { hostileJson, renderJson } from "./hostile-values.js";
import { hostileJsonBody, mutateValueMany } from "./mutate-json.js";
import type { Prng } from "./prng.js";
import { hostileYamlDocument, hostileYamlObject, yamlText } from "./yaml-bodies.js";

export type PatchType = "json" | "merge" | "strategic" | "apply";

export const patchContentTypes: Record<PatchType, string> = {
  json: "application/json-patch+json",
  merge: "application/merge-patch+json",
  strategic: "application/strategic-merge-patch+json",
  apply: "application/apply-patch+yaml",
};

/** JSON pointers into `value`, and some that point nowhere or are malformed. */
function pointers(value: Json, prng: Prng): string[] {
  const out = ["", "/", "/metadata/labels/a~1b", "/~2", "/~", "/metadata/~0", "/spec/x/y/z", "/-", "//", "metadata"];
  const walk = (node: Json, path: string, depth: number) => {
    if (depth > 8 || typeof node !== "object" || node === null) return;
    const keys = Array.isArray(node) ? node.map((_, i) => String(i)) : Object.keys(node);
    for (const key of keys) {
      const child = `${path}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`;
      out.push(child);
      if (Array.isArray(node))
        out.push(`${path}/-`, `${path}/${prng.pick(["-1", "01", "99999999999999999999", "1e3", " 0", "a"])}`);
      walk((node as Record<string, Json>)[key] as Json, child, depth + 1);
    }
  };
  walk(value, "", 0);
  return out;
}

function jsonPatch(prng: Prng, valid: Json): Json {
  const paths = pointers(valid, prng);
  const op = () => {
    const operation: Record<string, Json> = {
      op: prng.pick(["add", "remove", "replace", "move", "copy", "test", "ADD", "", "delete", "merge"]),
      path: prng.pick(paths),
    };
    if (prng.chance(0.7)) operation.value = prng.chance(0.5) ? hostileJson(prng) : "v";
    if (prng.chance(0.4)) operation.from = prng.pick(paths);
    if (prng.chance(0.1)) delete operation.path;
    if (prng.chance(0.05)) operation.op = hostileJson(prng);
    return operation;
  };
  // Each copy doubles the map it copies into itself: a small patch asking for a huge object. It costs a
  // server (kube's too) a second of work, so it comes rarely.
  if (prng.chance(0.02)) {
    const ops: Json[] = [{ op: "add", path: "/metadata/annotations", value: { x: "y".repeat(1024) } }];
    for (let i = 0; i < prng.pick([10, 25, 40]); i++) {
      ops.push({ op: "copy", from: "/metadata/annotations", path: `/metadata/annotations/c${i}` });
    }
    return ops;
  }
  switch (prng.int(5)) {
    case 0:
      return Array.from({ length: prng.size([10], [10_001, 20_000]) }, () => ({
        op: "test",
        path: "/metadata/name",
        value: "x",
      }));
    case 1:
      return prng.pick<Json>([{}, null, "add", 1, [[]], [null], [1], [{}], { op: "add", path: "/x", value: 1 }]);
    default:
      return Array.from({ length: prng.between(1, 5) }, op);
  }
}

/** A partial object for merge and strategic merge patches, with nulls and, for strategic ones, directives. */
function mergePatch(prng: Prng, valid: Json, strategic: boolean): Json {
  const patch = mutateValueMany(prng, valid) as Record<string, Json>;
  if (typeof patch !== "object" || patch === null || Array.isArray(patch) || !strategic) return patch;
  const directive = prng.pick<[string, Json]>([
    ["$patch", prng.pick(["replace", "delete", "merge", "bogus", ""])],
    ["$retainKeys", prng.pick<Json>([["metadata"], "x", [1], null])],
    ["$setElementOrder/containers", prng.pick<Json>([[{ name: "web" }, { name: "nope" }], [{}], "x", [1]])],
    ["$deleteFromPrimitiveList/finalizers", prng.pick<Json>([["a"], "x", {}])],
    ["$setElementOrder/finalizers", [null, "b"]],
  ]);
  const spec = patch.spec;
  if (typeof spec === "object" && spec !== null && !Array.isArray(spec) && prng.chance(0.5)) {
    spec[directive[0]] = directive[1];
  } else {
    patch[directive[0]] = directive[1];
  }
  if (prng.chance(0.3)) {
    const containers = { name: prng.pick(["web", "", "new"]), $patch: prng.pick(["delete", "replace", "x"]) };
    patch.spec = { template: { spec: { containers: [containers, { image: "no-name" }] } } };
  }
  return patch;
}

/** A hostile patch body of `type` against the object `valid` describes. */
export function hostilePatchBody(prng: Prng, type: PatchType, valid: Json): Buffer {
  if (prng.chance(0.1)) return hostileJsonBody(prng, valid);
  switch (type) {
    case "json":
      return Buffer.from(renderJson(jsonPatch(prng, valid)));
    case "merge":
      return Buffer.from(renderJson(mergePatch(prng, valid, false)));
    case "strategic":
      return Buffer.from(renderJson(mergePatch(prng, valid, true)));
    case "apply":
      switch (prng.int(4)) {
        case 0:
          return Buffer.from(hostileYamlDocument(prng));
        case 1:
          return Buffer.from(renderJson(mutateValueMany(prng, valid)));
        case 2:
          return Buffer.from(yamlText(mutateValueMany(prng, valid)));
        default:
          return Buffer.from(hostileYamlObject(prng, valid));
      }
  }
}
