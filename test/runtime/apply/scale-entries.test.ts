import { describe, expect, it } from "vitest";
import { parentEntriesAfterScale, replicasPath, scaleEntriesOf } from "../../../runtime/apply/scale-entries.js";

const path = replicasPath(".spec.replicas");
const entry = (manager: string, operation: string, apiVersion: string, fieldsV1: object, subresource?: string) => ({
  manager,
  operation,
  apiVersion,
  time: "2026-11-21T10:00:00Z",
  fieldsType: "FieldsV1",
  fieldsV1,
  ...(subresource === undefined ? {} : { subresource }),
});
const parentEntries = [
  entry("kubectl", "Apply", "apps/v1", { "f:spec": { "f:replicas": {}, "f:paused": {} } }),
  entry("labeler", "Update", "apps/v1", { "f:metadata": { "f:labels": { "f:a": {} } } }),
];

describe("scale entries", () => {
  it("gives the Scale the parent's owners of the replicas path", () => {
    expect(scaleEntriesOf(parentEntries, path, "autoscaling/v1")).toEqual([
      entry("kubectl", "Apply", "autoscaling/v1", { "f:spec": { "f:replicas": {} } }),
    ]);
  });

  it("keeps a parent owner that still manages the Scale, and adds the Scale's new owners", () => {
    const scale = [
      entry("kubectl", "Apply", "autoscaling/v1", { "f:spec": { "f:replicas": {} } }),
      entry("hpa", "Apply", "autoscaling/v1", { "f:spec": { "f:replicas": {} } }, "scale"),
    ];
    expect(parentEntriesAfterScale(parentEntries, scale, path, "apps/v1")).toEqual([
      entry("hpa", "Apply", "apps/v1", { "f:spec": { "f:replicas": {} } }, "scale"),
      parentEntries[0],
      parentEntries[1],
    ]);
  });

  it("takes the replicas path from a parent owner the Scale no longer lists", () => {
    const scale = [entry("hpa", "Apply", "autoscaling/v1", { "f:spec": { "f:replicas": {} } }, "scale")];
    expect(parentEntriesAfterScale(parentEntries, scale, path, "apps/v1")).toEqual([
      entry("hpa", "Apply", "apps/v1", { "f:spec": { "f:replicas": {} } }, "scale"),
      entry("kubectl", "Apply", "apps/v1", { "f:spec": { "f:paused": {} } }),
      parentEntries[1],
    ]);
  });
});
