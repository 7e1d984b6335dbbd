import { describe, expect, it } from "vitest";
import { created, createErrors, type Kind, updateErrors, workload } from "./write-path.js";

const StatefulSet: Kind = ["apps", "v1", "StatefulSet"];
const statefulSet = (spec: Record<string, unknown> = {}) => workload("db", { serviceName: "db", ...spec });

describe("stateful-set strategy", () => {
  it("defaults pod management, the update strategy and the retention policy", () => {
    expect(created(StatefulSet, statefulSet()).spec).toMatchObject({
      replicas: 1,
      podManagementPolicy: "OrderedReady",
      updateStrategy: { type: "RollingUpdate", rollingUpdate: { partition: 0 } },
      persistentVolumeClaimRetentionPolicy: { whenDeleted: "Retain", whenScaled: "Retain" },
    });
    expect(createErrors(StatefulSet, statefulSet())).toEqual([]);
  });

  it("words its checks as kube does", () => {
    const spec = {
      podManagementPolicy: "Random",
      updateStrategy: { type: "OnDelete", rollingUpdate: { partition: 1 } },
      selector: {},
      serviceName: "db.local",
    };
    expect(createErrors(StatefulSet, statefulSet(spec))).toEqual([
      "spec.podManagementPolicy: Invalid value: \"Random\": must be 'OrderedReady' or 'Parallel'",
      "spec.updateStrategy.rollingUpdate: Invalid value: {\"partition\":1}: only allowed for updateStrategy 'RollingUpdate'",
      `spec.serviceName: Invalid value: "db.local": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
      "spec.selector: Invalid value: {}: empty selector is invalid for statefulset",
    ]);
  });

  it("lets an update change only some spec fields", () => {
    const old = created(StatefulSet, statefulSet());
    expect(updateErrors(StatefulSet, statefulSet({ replicas: 3, minReadySeconds: 5 }), old)).toEqual([]);
    expect(updateErrors(StatefulSet, statefulSet({ serviceName: "other" }), old)).toEqual([
      "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    ]);
  });
});
