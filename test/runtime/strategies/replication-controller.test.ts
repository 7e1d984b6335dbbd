import { describe, expect, it } from "vitest";
import { created, createErrors, type Kind, strategyOf } from "./write-path.js";

const ReplicationController: Kind = ["", "v1", "ReplicationController"];
const rc = (spec: Record<string, unknown> = {}, meta: Record<string, unknown> = {}): Record<string, unknown> => ({
  metadata: { name: "web", namespace: "default", ...meta },
  spec: {
    template: { metadata: { labels: { app: "web" } }, spec: { containers: [{ name: "web", image: "nginx" }] } },
    ...spec,
  },
});

describe("replication-controller strategy", () => {
  it("takes its selector and labels from the template", () => {
    const c = created(ReplicationController, rc());
    expect((c.spec as { selector: unknown }).selector).toEqual({ app: "web" });
    expect((c.metadata as { labels: unknown }).labels).toEqual({ app: "web" });
    expect(createErrors(ReplicationController, rc())).toEqual([]);
  });

  it("requires a template that its selector matches", () => {
    expect(createErrors(ReplicationController, { metadata: { name: "x" }, spec: { selector: { a: "b" } } })).toEqual([
      "spec.template: Required value",
    ]);
    expect(createErrors(ReplicationController, rc({ selector: { app: "api" } }))).toEqual([
      'spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`',
    ]);
  });

  it("orphans its pods by default", () => {
    expect(strategyOf(ReplicationController).defaultPropagationPolicy).toBe("Orphan");
  });
});
