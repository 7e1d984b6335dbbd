import { describe, expect, it } from "vitest";
import { created, type Kind, strategyOf } from "./write-path.js";

const ServiceAccount: Kind = ["", "v1", "ServiceAccount"];

describe("service-account strategy", () => {
  it("keeps only the names of secret references", () => {
    const sa = created(ServiceAccount, {
      metadata: { name: "builder", namespace: "default" },
      secrets: [{ name: "token", namespace: "other", uid: "1" }],
    });
    expect(sa.secrets).toEqual([{ name: "token" }]);
  });

  it("answers a delete with the account", () => {
    expect(strategyOf(ServiceAccount).returnDeletedObject).toBe(true);
  });
});
