import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AuthenticationError } from "../../../runtime/access/authenticator.js";
import { BearerTokenAuthenticator } from "../../../runtime/authn/bearer-token.js";
import { BootstrapTokenAuthenticator } from "../../../runtime/authn/bootstrap-token.js";
import { secrets } from "../../../runtime/controllers/core-kinds.js";
import { type Harness, startHarness } from "../controllers/controller-harness.js";

const onlySystemNamespaces = {
  garbageCollector: false,
  namespaces: false,
  serviceAccounts: false,
  rootCa: false,
};
const token = "abcdef.0123456789abcdef";

let harness: Harness;
beforeEach(async () => {
  harness = await startHarness({ enabled: onlySystemNamespaces });
});
afterEach(async () => {
  await harness.close();
});

async function createToken(stringData: Record<string, string>, options: { name?: string; type?: string } = {}) {
  await harness.api.create(
    { kind: secrets, namespace: "kube-system" },
    {
      apiVersion: "v1",
      kind: "Secret",
      metadata: { name: options.name ?? "bootstrap-token-abcdef" },
      type: options.type ?? "bootstrap.kubernetes.io/token",
      stringData,
    },
  );
}

const valid = {
  "token-id": "abcdef",
  "token-secret": "0123456789abcdef",
  "usage-bootstrap-authentication": "true",
};

describe("bootstrap token authenticator", () => {
  it("authenticates a valid token as system:bootstrap:<id> in system:bootstrappers plus its extra groups", async () => {
    await createToken({
      ...valid,
      "auth-extra-groups": "system:bootstrappers:worker,system:bootstrappers:kubeadm:default-node-token",
      expiration: new Date(Date.now() + 3_600_000).toISOString(),
    });
    const result = await new BootstrapTokenAuthenticator(harness.api).authenticateToken(token);
    expect(result).toEqual({
      user: {
        name: "system:bootstrap:abcdef",
        groups: [
          "system:bootstrappers",
          "system:bootstrappers:kubeadm:default-node-token",
          "system:bootstrappers:worker",
        ],
      },
    });
  });

  it("leaves tokens of another format to the other authenticators", async () => {
    await createToken(valid);
    const authenticator = new BootstrapTokenAuthenticator(harness.api);
    for (const other of ["ABCDEF.0123456789abcdef", "abcdef:0123456789abcdef", "abcdef.0123456789abcdef0", "x"]) {
      expect(await authenticator.authenticateToken(other)).toBeUndefined();
    }
  });

  const refusals: [string, () => Promise<void>, string?][] = [
    ["no Secret has its id", () => createToken(valid, { name: "bootstrap-token-zzzzzz" })],
    ["the secret part differs", () => createToken({ ...valid, "token-secret": "0123456789abcdeg" })],
    ["the secret part is shorter", () => createToken({ ...valid, "token-secret": "0123456789" })],
    ["the Secret is of another type", () => createToken(valid, { type: "Opaque" })],
    ["token-id does not match the name", () => createToken({ ...valid, "token-id": "fedcba" })],
    ["it has expired", () => createToken({ ...valid, expiration: new Date(Date.now() - 1000).toISOString() })],
    ["its expiration is not RFC 3339", () => createToken({ ...valid, expiration: "tomorrow" })],
    ["authentication usage is not true", () => createToken({ ...valid, "usage-bootstrap-authentication": "yes" })],
    [
      "authentication usage is missing",
      () => createToken({ "token-id": "abcdef", "token-secret": "0123456789abcdef" }),
    ],
    [
      "an extra group lacks the system:bootstrappers: prefix",
      () => createToken({ ...valid, "auth-extra-groups": "system:bootstrappers:ok,system:masters" }),
    ],
    ["an extra group ends in a colon", () => createToken({ ...valid, "auth-extra-groups": "system:bootstrappers:" })],
  ];
  for (const [why, setUp] of refusals) {
    it(`refuses the token when ${why}`, async () => {
      await setUp();
      expect(await new BootstrapTokenAuthenticator(harness.api).authenticateToken(token)).toBeUndefined();
    });
  }

  it("accepts an expiration in the future with an offset and refuses it once passed", async () => {
    await createToken({ ...valid, expiration: "2030-01-01T01:00:00+01:00" });
    const before = new BootstrapTokenAuthenticator(harness.api, { now: () => new Date("2029-12-31T23:59:59Z") });
    const after = new BootstrapTokenAuthenticator(harness.api, { now: () => new Date("2030-01-01T00:00:00Z") });
    expect((await before.authenticateToken(token))?.user.name).toBe("system:bootstrap:abcdef");
    expect(await after.authenticateToken(token)).toBeUndefined();
  });

  it("refuses a token whose Secret is being deleted", async () => {
    await harness.api.create(
      { kind: secrets, namespace: "kube-system" },
      {
        metadata: { name: "bootstrap-token-abcdef", finalizers: ["example.com/hold"] },
        type: "bootstrap.kubernetes.io/token",
        stringData: valid,
      },
    );
    const authenticator = new BootstrapTokenAuthenticator(harness.api);
    expect(await authenticator.authenticateToken(token)).toBeDefined();
    await harness.api.delete({ kind: secrets, namespace: "kube-system", name: "bootstrap-token-abcdef" });
    expect(await authenticator.authenticateToken(token)).toBeUndefined();
  });

  it("ends as an invalid bearer token behind the bearer-token authenticator", async () => {
    await createToken({ ...valid, "usage-bootstrap-authentication": "false" });
    const bearer = new BearerTokenAuthenticator(new BootstrapTokenAuthenticator(harness.api));
    const request = { headers: { authorization: `Bearer ${token}` }, peerCertificates: () => [] };
    await expect(bearer.authenticate(request)).rejects.toThrow(AuthenticationError);
  });
});
