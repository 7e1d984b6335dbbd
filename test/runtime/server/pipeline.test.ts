import { describe, expect, it } from "vitest";
import type { Stage } from "../../../runtime/server/context.js";
import { pipeline, runStages } from "../../../runtime/server/pipeline.js";
import { fakeContext } from "./fake-context.js";

describe("pipeline", () => {
  it("runs the stages in kube-apiserver's order, outermost first", () => {
    expect(pipeline.map((s) => s.name)).toEqual([
      "requestInfo",
      "auditInit",
      "waitGroup",
      "timeout",
      "authentication",
      "audit",
      "impersonation",
      "maxInFlight",
      "priorityAndFairness",
      "authorization",
      "metrics",
      "requestBody",
      "handler",
    ]);
  });

  it("hands inward through next and unwinds outward", async () => {
    const trace: string[] = [];
    const stage = (name: string): Stage => ({
      name,
      async run(_ctx, next) {
        trace.push(`in ${name}`);
        await next();
        trace.push(`out ${name}`);
      },
    });
    await runStages([stage("a"), stage("b")], fakeContext());
    expect(trace).toEqual(["in a", "in b", "out b", "out a"]);
  });

  it("stops where a stage throws", async () => {
    const reached: string[] = [];
    const failing: Stage = {
      name: "failing",
      run: async () => {
        throw new Error("stop");
      },
    };
    const after: Stage = { name: "after", run: async () => void reached.push("after") };
    await expect(runStages([failing, after], fakeContext())).rejects.toThrow("stop");
    expect(reached).toEqual([]);
  });
});
