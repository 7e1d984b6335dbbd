import { describe, expect, it } from "vitest";
import { created, createErrors, type Kind, updateErrors, workload } from "./write-path.js";

const DaemonSet: Kind = ["apps", "v1", "DaemonSet"];
const daemonSet = (spec: Record<string, unknown> = {}) => workload("agent", spec);

describe("daemon-set strategy", () => {
  it("defaults a rolling update of one pod at a time", () => {
    expect(created(DaemonSet, daemonSet()).spec).toMatchObject({
      revisionHistoryLimit: 10,
      updateStrategy: { type: "RollingUpdate", rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
    });
    expect(createErrors(DaemonSet, daemonSet())).toEqual([]);
  });

  it("wants exactly one of maxUnavailable and maxSurge", () => {
    const both = { type: "RollingUpdate", rollingUpdate: { maxUnavailable: 1, maxSurge: 1 } };
    expect(createErrors(DaemonSet, daemonSet({ updateStrategy: both }))).toEqual([
      "spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero",
    ]);
    const neither = { type: "RollingUpdate", rollingUpdate: { maxUnavailable: 0, maxSurge: "0%" } };
    expect(createErrors(DaemonSet, daemonSet({ updateStrategy: neither }))).toEqual([
      "spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0",
    ]);
  });

  it("checks the selector against the template and the pods' restart policy", () => {
    const template = {
      metadata: { labels: { app: "x" } },
      spec: { containers: [{ name: "a", image: "a" }], activeDeadlineSeconds: 5 },
    };
    expect(createErrors(DaemonSet, daemonSet({ template }))).toEqual([
      'spec.template.metadata.labels: Invalid value: {"app":"x"}: `selector` does not match template `labels`',
      "spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in DaemonSet is not Supported",
    ]);
  });

  it("keeps the selector once created", () => {
    const old = created(DaemonSet, daemonSet());
    expect(updateErrors(DaemonSet, daemonSet({ selector: { matchLabels: { app: "agent", v: "2" } } }), old)).toContain(
      'spec.selector: Invalid value: {"matchLabels":{"app":"agent","v":"2"}}: field is immutable',
    );
  });
});
