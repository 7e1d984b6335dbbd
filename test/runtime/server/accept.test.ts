import { describe, expect, it } from "vitest";
import { negotiate, parseMediaType } from "../../../runtime/http/accept.js";

const json = parseMediaType("application/json");
const aggregated = parseMediaType("application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList");
const offers = [json, aggregated];

describe("negotiate", () => {
  it("takes the first offer without an Accept header", () => {
    expect(negotiate(undefined, offers)).toBe(json);
  });

  it("matches parameters exactly, in the client's order", () => {
    expect(
      negotiate("application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json", offers),
    ).toBe(aggregated);
    expect(
      negotiate("application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json", offers),
    ).toBe(json);
    expect(negotiate("application/json;as=Table;g=meta.k8s.io;v=v1", offers)).toBeUndefined();
  });

  it("honours wildcards and q", () => {
    expect(negotiate("*/*", offers)).toBe(json);
    expect(negotiate("application/yaml", offers)).toBeUndefined();
    expect(
      negotiate("application/json;q=0.5,application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList", offers),
    ).toBe(aggregated);
    expect(negotiate("application/json;q=0", offers)).toBeUndefined();
  });
});
