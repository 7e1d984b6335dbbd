import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import {
  LogCheck,
  ping,
  runHealthChecks,
  runOneCheck,
  shutdownCheck,
  storeCheck,
} from "../../../../runtime/server/endpoints/health.js";
import { MemoryStore } from "../../../../runtime/storage/memory-store.js";

const failing = { name: "etcd", check: () => Promise.reject(new Error("down")) };
const q = (s: string) => new URLSearchParams(s);

describe("health checks", () => {
  it("answers ok, or every check with ?verbose", async () => {
    expect(await runHealthChecks("livez", [ping], q(""), () => {})).toEqual({ code: 200, body: "ok" });
    expect(await runHealthChecks("livez", [ping], q("verbose"), () => {})).toEqual({
      code: 200,
      body: "[+]ping ok\nlivez check passed\n",
    });
  });

  it("fails with the reason withheld and logged", async () => {
    const logged: unknown[] = [];
    expect(await runHealthChecks("readyz", [ping, failing], q(""), (_m, e) => logged.push(e))).toEqual({
      code: 500,
      body: "[+]ping ok\n[-]etcd failed: reason withheld\nreadyz check failed\n",
    });
    expect(logged).toHaveLength(1);
  });

  it("excludes checks and warns about exclusions that match none", async () => {
    expect(await runHealthChecks("healthz", [ping, failing], q("verbose&exclude=etcd&exclude=nope"), () => {})).toEqual(
      {
        code: 200,
        body: '[+]ping ok\n[+]etcd excluded: ok\nwarn: some health checks cannot be excluded: no matches for "nope"\nhealthz check passed\n',
      },
    );
  });

  it("runs one check alone", async () => {
    expect(await runOneCheck(ping)).toEqual({ code: 200, body: "ok" });
    expect(await runOneCheck(failing)).toEqual({ code: 500, body: "internal server error: down\n" });
    expect(await runOneCheck(undefined)).toBeUndefined();
  });

  it("fails shutdown once the server closes", async () => {
    let closing = false;
    const check = shutdownCheck(() => closing);
    expect((await runOneCheck(check))?.code).toBe(200);
    closing = true;
    expect((await runOneCheck(check))?.code).toBe(500);
  });

  it("checks the store with a round trip, under kube's names", async () => {
    const store = new MemoryStore();
    expect(await runOneCheck(storeCheck("etcd", store))).toEqual({ code: 200, body: "ok" });
    await store.close();
    expect(await runOneCheck(storeCheck("etcd-readiness", store))).toEqual({
      code: 500,
      body: "internal server error: storage: store is closed\n",
    });
  });

  it("fails log once the sink has not flushed for two flush periods", async () => {
    let now = 0;
    let stuck = false;
    const sink = new Writable({
      write(_chunk, _encoding, callback) {
        if (!stuck) callback();
      },
    });
    const check = new LogCheck(sink, () => now, 1000);
    try {
      check.check();
      await new Promise((resolve) => setImmediate(resolve));
      stuck = true;
      now = 1999;
      check.check();
      // The periodic flush now never goes through.
      await new Promise((resolve) => setTimeout(resolve, 1100));
      now = 2000;
      expect(() => check.check()).toThrow("logging blocked");
    } finally {
      check.stop();
    }
  });
});
