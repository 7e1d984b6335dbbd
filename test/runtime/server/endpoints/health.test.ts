import { describe, expect, it } from "vitest";
import { ping, runHealthChecks, runOneCheck, shutdownCheck } from "../../../../runtime/server/endpoints/health.js";

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
});
