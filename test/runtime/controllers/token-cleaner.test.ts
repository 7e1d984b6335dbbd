import { describe, expect, it } from "vitest";
import { secrets } from "../../../runtime/controllers/core-kinds.js";
import { TokenCleaner } from "../../../runtime/controllers/token-cleaner.js";
import { eventually, find } from "./controller-harness.js";
import { runControllerPerTest } from "./run-controller.js";

const setup = runControllerPerTest((api, context) => new TokenCleaner(api, context));

const secret = (name: string) => ({ kind: secrets, namespace: "kube-system", name });

async function createSecret(name: string, stringData: Record<string, string>, type = "bootstrap.kubernetes.io/token") {
  await setup.harness.api.create({ kind: secrets, namespace: "kube-system" }, { metadata: { name }, type, stringData });
}

const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();

describe("token cleaner", () => {
  it("deletes bootstrap token Secrets whose expiration has passed or cannot be read", async () => {
    await createSecret("bootstrap-token-aaaaaa", { "token-id": "aaaaaa", expiration: inMs(-1000) });
    await createSecret("bootstrap-token-bbbbbb", { "token-id": "bbbbbb", expiration: "next week" });
    // The cleaner looks at the type alone, as kube's does, whatever the name.
    await createSecret("odd-name", { expiration: inMs(-1000) });
    for (const name of ["bootstrap-token-aaaaaa", "bootstrap-token-bbbbbb", "odd-name"]) {
      await eventually(async () => expect(await find(setup.harness.api, secret(name))).toBeUndefined());
    }
  });

  it("keeps tokens without expiration, Secrets of other types, and deletes a token when it expires", async () => {
    await createSecret("bootstrap-token-cccccc", { "token-id": "cccccc" });
    await createSecret("other", { expiration: inMs(-1000) }, "Opaque");
    await createSecret("bootstrap-token-dddddd", { "token-id": "dddddd", expiration: inMs(400) });
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await find(setup.harness.api, secret("bootstrap-token-dddddd"))).toBeDefined();
    await eventually(async () =>
      expect(await find(setup.harness.api, secret("bootstrap-token-dddddd"))).toBeUndefined(),
    );
    expect(await find(setup.harness.api, secret("bootstrap-token-cccccc"))).toBeDefined();
    expect(await find(setup.harness.api, secret("other"))).toBeDefined();
  });

  it("deletes a token whose expiration is changed to the past", async () => {
    await createSecret("bootstrap-token-eeeeee", { "token-id": "eeeeee", expiration: inMs(3_600_000) });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const current = (await setup.harness.api.get(secret("bootstrap-token-eeeeee"))).object;
    await setup.harness.api.update(secret("bootstrap-token-eeeeee"), {
      ...structuredClone(current),
      stringData: { expiration: inMs(-1000) },
    });
    await eventually(async () =>
      expect(await find(setup.harness.api, secret("bootstrap-token-eeeeee"))).toBeUndefined(),
    );
  });
});
