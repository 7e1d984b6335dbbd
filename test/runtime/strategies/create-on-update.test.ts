import { describe, expect, it } from "vitest";
import { type Kind, strategyOf } from "./write-path.js";

describe("create-on-update strategy", () => {
  it.each<Kind>([
    ["", "v1", "Endpoints"],
    ["", "v1", "Event"],
    ["", "v1", "LimitRange"],
    ["events.k8s.io", "v1", "Event"],
  ])("lets a PUT create %s", (...kind) => {
    expect(strategyOf(kind).allowCreateOnUpdate).toBe(true);
  });
});
