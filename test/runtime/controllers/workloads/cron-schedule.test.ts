// The cron parser against robfig/cron's standard schedules as kube's CronJob controller reads them.
import { describe, expect, it } from "vitest";
import { parseSchedule } from "../../../../runtime/controllers/workloads/cron-schedule.js";

const next = (spec: string, after: string, zone?: string) =>
  parseSchedule(spec, zone).next(new Date(after)).toISOString();

describe("cron schedules", () => {
  it("steps, lists, ranges, names and `?`", () => {
    expect(next("*/1 * * * ?", "2026-11-28T07:45:37Z")).toBe("2026-11-28T07:46:00.000Z");
    expect(next("*/15 * * * *", "2026-11-28T07:45:00Z")).toBe("2026-11-28T08:00:00.000Z");
    expect(next("5,10-12 3 * * *", "2026-11-28T03:10:00Z")).toBe("2026-11-28T03:11:00.000Z");
    expect(next("0 0 * JAN-MAR MON", "2026-11-28T00:00:00Z")).toBe("2027-01-04T00:00:00.000Z");
  });

  it("day of month or day of week when both are restricted, both when one is `*`", () => {
    expect(next("0 0 13 * 5", "2026-11-28T00:00:00Z")).toBe("2026-12-04T00:00:00.000Z");
    expect(next("0 0 13 * *", "2026-11-28T00:00:00Z")).toBe("2026-12-13T00:00:00.000Z");
  });

  it("descriptors and @every", () => {
    expect(next("@hourly", "2026-11-28T07:45:37Z")).toBe("2026-11-28T08:00:00.000Z");
    expect(next("@yearly", "2026-11-28T07:45:37Z")).toBe("2027-01-01T00:00:00.000Z");
    expect(next("@weekly", "2026-11-28T07:45:37Z")).toBe("2026-11-29T00:00:00.000Z");
    expect(next("@every 90s", "2026-11-28T07:45:37Z")).toBe("2026-11-28T07:47:07.000Z");
  });

  it("reads the wall clock of a time zone", () => {
    expect(next("0 9 * * *", "2026-11-28T00:00:00Z", "Europe/Berlin")).toBe("2026-11-28T08:00:00.000Z");
    expect(next("0 9 * * *", "2026-07-01T00:00:00Z", "America/New_York")).toBe("2026-07-01T13:00:00.000Z");
  });

  it("refuses what robfig/cron refuses, in its words", () => {
    expect(() => parseSchedule("* * * *")).toThrow("expected exactly 5 fields, found 4: [* * * *]");
    expect(() => parseSchedule("61 * * * *")).toThrow("end of range (61) above maximum (59): 61");
    expect(() => parseSchedule("@fortnightly")).toThrow("unrecognized descriptor: @fortnightly");
  });
});
