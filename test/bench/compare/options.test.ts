import { describe, expect, it } from "vitest";
import { parseCompareOptions } from "../../../bench/compare/options.js";
import { podBody, workloadNames } from "../../../bench/compare/workloads.js";

describe("bench/compare.ts options", () => {
  it("defaults to every workload for 10 s with one client thread and 300 watchers", () => {
    const options = parseCompareOptions([]);
    expect([...options.only]).toEqual([...workloadNames]);
    expect(options).toMatchObject({
      seconds: 10,
      clientThreads: 1,
      watchers: 300,
      pods: 10_000,
      build: true,
      kube: true,
    });
    expect(options.kapiArgs).toEqual([]);
  });

  it("passes repeated --kapi-arg through in order and reads --only as lists", () => {
    const options = parseCompareOptions([
      "--kapi-arg=--workers",
      "--kapi-arg=2",
      "--only",
      "get,update",
      "--only=watch",
      "--seconds=3",
      "--json=/tmp/x.json",
    ]);
    expect(options.kapiArgs).toEqual(["--workers", "2"]);
    expect([...options.only]).toEqual(["get", "update", "watch"]);
    expect(options.seconds).toBe(3);
    expect(options.json).toBe("/tmp/x.json");
  });

  it("refuses unknown workloads, flags and non-positive numbers", () => {
    expect(() => parseCompareOptions(["--only=gets"])).toThrow('unknown workload "gets"');
    expect(() => parseCompareOptions(["--fast"])).toThrow();
    expect(() => parseCompareOptions(["--seconds=0"])).toThrow("--seconds must be a positive number");
  });
});

describe("the Pod of the Pod workloads", () => {
  it("is 2 KiB of JSON", () => {
    expect(podBody("p-12345").length).toBe(2048);
  });
});
