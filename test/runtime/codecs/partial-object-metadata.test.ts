import { describe, expect, it } from "vitest";
import {
  toPartialObjectMetadata,
  toPartialObjectMetadataList,
} from "../../../runtime/codecs/partial-object-metadata.js";

const pod = {
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name: "p", namespace: "ns", uid: "u", resourceVersion: "5", labels: { a: "b" } },
  spec: { containers: [] },
};

describe("toPartialObjectMetadata", () => {
  it("keeps only the metadata, under meta.k8s.io", () => {
    const pom = toPartialObjectMetadata(pod, "v1");
    expect(pom).toEqual({ kind: "PartialObjectMetadata", apiVersion: "meta.k8s.io/v1", metadata: pod.metadata });
    expect(Object.keys(pom)).toEqual(["kind", "apiVersion", "metadata"]);
    expect(toPartialObjectMetadata({}, "v1beta1")).toEqual({
      kind: "PartialObjectMetadata",
      apiVersion: "meta.k8s.io/v1beta1",
      metadata: {},
    });
  });
});

describe("toPartialObjectMetadataList", () => {
  it("carries the list metadata and typed items", () => {
    const list = toPartialObjectMetadataList(
      [pod],
      { resourceVersion: "9", continue: "t", remainingItemCount: 3 },
      "v1",
    );
    expect(list).toEqual({
      kind: "PartialObjectMetadataList",
      apiVersion: "meta.k8s.io/v1",
      metadata: { resourceVersion: "9", continue: "t", remainingItemCount: 3 },
      items: [{ kind: "PartialObjectMetadata", apiVersion: "meta.k8s.io/v1", metadata: pod.metadata }],
    });
  });

  it("omits empty list metadata fields and answers items: null for an empty list", () => {
    const list = toPartialObjectMetadataList([], { resourceVersion: "9", continue: "" }, "v1beta1");
    expect(list).toEqual({
      kind: "PartialObjectMetadataList",
      apiVersion: "meta.k8s.io/v1beta1",
      metadata: { resourceVersion: "9" },
      items: null,
    });
  });
});
