import { describe, expect, it } from "vitest";
import { checksOf, ping, runHealthChecks, runOneCheck } from "../../../runtime/server/endpoints/health.js";
import { PostStartHooks } from "../../../runtime/server/post-start-hooks.js";

const q = (s: string) => new URLSearchParams(s);

function deferred() {
  let resolve = () => {};
  let reject: (error: unknown) => void = () => {};
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe("post-start hooks", () => {
  it("fails a step's check until it is done, as kube's 'not finished'", async () => {
    const hooks = new PostStartHooks(() => {});
    const roles = deferred();
    hooks.register("rbac/bootstrap-roles", roles.promise);
    const health = { livez: [ping], readyz: [ping], postStartHooks: hooks };
    expect(await runHealthChecks("livez", checksOf(health, "livez"), q("verbose"), () => {})).toEqual({
      code: 500,
      body: "[+]ping ok\n[-]poststarthook/rbac/bootstrap-roles failed: reason withheld\nlivez check failed\n",
    });
    const check = checksOf(health, "readyz").find((c) => c.name === "poststarthook/rbac/bootstrap-roles");
    expect(await runOneCheck(check)).toEqual({ code: 500, body: "internal server error: not finished\n" });
    roles.resolve();
    await hooks.settled();
    expect(await runOneCheck(check)).toEqual({ code: 200, body: "ok" });
  });

  it("lists steps in kube's order whatever the order they were registered in", () => {
    const hooks = new PostStartHooks(() => {});
    hooks.register("priority-and-fairness-config-producer", Promise.resolve());
    hooks.register("start-system-namespaces-controller", Promise.resolve());
    hooks.register("bootstrap-controller", Promise.resolve());
    hooks.register("rbac/bootstrap-roles", Promise.resolve());
    expect(hooks.checks().map((c) => c.name)).toEqual([
      "poststarthook/start-system-namespaces-controller",
      "poststarthook/rbac/bootstrap-roles",
      "poststarthook/priority-and-fairness-config-producer",
      "poststarthook/bootstrap-controller",
    ]);
  });

  it("keeps a failed step not finished and logs it", async () => {
    const logged: string[] = [];
    const hooks = new PostStartHooks((message) => logged.push(message));
    hooks.register("scheduling/bootstrap-system-priority-classes", Promise.reject(new Error("no")));
    await hooks.settled();
    expect(logged).toEqual(["post-start hook scheduling/bootstrap-system-priority-classes failed"]);
    expect(await runOneCheck(hooks.checks()[0])).toEqual({ code: 500, body: "internal server error: not finished\n" });
  });

  it("refuses names kube does not have, and a name twice", () => {
    const hooks = new PostStartHooks(() => {});
    expect(() => hooks.register("my-hook", Promise.resolve())).toThrow(
      "my-hook is not a kube-apiserver post-start hook",
    );
    hooks.register("crd-informer-synced", Promise.resolve());
    expect(() => hooks.register("crd-informer-synced", Promise.resolve())).toThrow("registered twice");
  });

  it("lists kube's boot-sequence checks that are not hooks where kube lists them, and runs them as they are", async () => {
    const hooks = new PostStartHooks(() => {});
    let missing = true;
    hooks.addCheck(
      {
        name: "autoregister-completion",
        check() {
          if (missing) throw new Error("missing APIService: [v1.]");
        },
      },
      Promise.resolve(),
    );
    hooks.register("apiservice-openapi-controller", Promise.resolve());
    hooks.register("kube-apiserver-autoregistration", Promise.resolve());
    await hooks.settled();
    expect(hooks.checks().map((c) => c.name)).toEqual([
      "poststarthook/kube-apiserver-autoregistration",
      "autoregister-completion",
      "poststarthook/apiservice-openapi-controller",
    ]);
    expect(await runOneCheck(hooks.checks()[1])).toEqual({
      code: 500,
      body: "internal server error: missing APIService: [v1.]\n",
    });
    missing = false;
    expect(await runOneCheck(hooks.checks()[1])).toEqual({ code: 200, body: "ok" });
    expect(() => hooks.addCheck({ name: "my-check", check() {} }, Promise.resolve())).toThrow(
      "my-check is not a kube-apiserver boot-sequence check",
    );
  });

  it("puts the hooks after the endpoint's checks and shutdown last on /readyz", () => {
    const hooks = new PostStartHooks(() => {});
    hooks.register("crd-informer-synced", Promise.resolve());
    const shutdown = { name: "shutdown", check() {} };
    const health = { livez: [ping], readyz: [ping], postStartHooks: hooks, shutdown };
    expect(checksOf(health, "readyz").map((c) => c.name)).toEqual([
      "ping",
      "poststarthook/crd-informer-synced",
      "shutdown",
    ]);
    expect(checksOf(health, "healthz").map((c) => c.name)).toEqual(["ping", "poststarthook/crd-informer-synced"]);
  });
});
