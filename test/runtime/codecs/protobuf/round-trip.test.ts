// Every kind with a protobuf message, generated from the schemas by a seeded fuzzer: JSON → protobuf (the
// response encoder) → JSON (the decoder, keeping every field as a Go client would) gives the object back
// unchanged. The lossy spots kube itself has are kept out of the generated objects (fuzz-objects.ts).
import { describe, expect, it } from "vitest";
import { kinds as registry } from "../../../../generated/registry.js";
import { envelopeRaw } from "../../../../runtime/codecs/protobuf/envelope.js";
import { objectPlan } from "../../../../runtime/codecs/protobuf/kind-messages.js";
import { decodeProtobufObject } from "../../../../runtime/codecs/protobuf/protobuf-body.js";
import { encodeProtobuf, encodeProtobufList } from "../../../../runtime/codecs/protobuf/protobuf-response.js";
import { fuzzObject, kindsWithMessages, lossySpots } from "./fuzz-objects.js";

const kinds = kindsWithMessages();
const seedsPerKind = 8;

describe("protobuf round trip of every kind", () => {
  it("covers the built-in kinds and names kube's lossy spots", () => {
    expect(kinds.length).toBeGreaterThan(100);
    expect(kinds.map((k) => `${k.apiVersion}/${k.gvk.kind}`)).toEqual(
      expect.arrayContaining([
        "v1/Pod",
        "apps/v1/Deployment",
        "meta.k8s.io/v1/Status",
        "apiextensions.k8s.io/v1/CustomResourceDefinition",
      ]),
    );
    expect(lossySpots.length).toBeGreaterThan(0);
  });

  it("has a message for every served kind and subresource body, and a list message for every listed kind", () => {
    const missing: string[] = [];
    for (const k of registry) {
      if (k.resource === undefined) continue;
      const own = [k.kind, ...(k.resource.verbs.includes("list") ? [k.listKind ?? `${k.kind}List`] : [])];
      const wanted = own.map((kind) => ({ group: k.group, version: k.version, kind }));
      // Connect subresources (exec, attach, proxy, …) name their query options, never a body.
      for (const sub of k.resource.subresources) {
        if (sub.kind !== undefined && !sub.kind.kind.endsWith("Options")) wanted.push(sub.kind);
      }
      for (const gvk of wanted)
        if (objectPlan(gvk) === undefined) missing.push(`${gvk.group}/${gvk.version} ${gvk.kind}`);
    }
    expect(missing).toEqual([]);
  });

  it.each(kinds.map((k) => [`${k.apiVersion} ${k.gvk.kind}`, k] as const))("%s: JSON → protobuf → JSON", (_, c) => {
    for (let seed = 1; seed <= seedsPerKind; seed++) {
      const object = fuzzObject(c, seed * 7919 + c.gvk.kind.length);
      const body = encodeProtobuf(object);
      expect(decodeProtobufObject(body), `seed ${seed}`).toEqual(object);
    }
  });

  it("lists round-trip item by item, as assembled from each item's own body", () => {
    const pod = kinds.find((k) => k.apiVersion === "v1" && k.gvk.kind === "Pod");
    if (pod === undefined) throw new Error("no Pod");
    const items = [1, 2, 3].map((seed) => fuzzObject(pod, seed));
    const metadata = { resourceVersion: "42", continue: "token", remainingItemCount: 7 };
    const body = encodeProtobufList(
      "v1",
      "PodList",
      metadata,
      items.map((item) => envelopeRaw(encodeProtobuf(item))),
    );
    const bare = items.map(({ kind: _k, apiVersion: _a, ...rest }) => rest);
    expect(decodeProtobufObject(body)).toEqual({ kind: "PodList", apiVersion: "v1", metadata, items: bare });
  });
});
