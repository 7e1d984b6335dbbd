import { compactVerify, flattenedVerify } from "jose";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { BootstrapSigner, detachedSignature } from "../../../runtime/controllers/bootstrap-signer.js";
import { secrets } from "../../../runtime/controllers/core-kinds.js";
import { configMapKind, eventually, find, metadata } from "./controller-harness.js";
import { runControllerPerTest } from "./run-controller.js";

const caCert = "-----BEGIN CERTIFICATE-----\nMIIBkTCB+wIJAKapi\n-----END CERTIFICATE-----\n";
const server = "https://127.0.0.1:6443";
const clusterInfo = { kind: configMapKind, namespace: "kube-public", name: "cluster-info" };

const setup = runControllerPerTest((api, context) => new BootstrapSigner(api, { server, caCert }, context));

async function createToken(id: string, data: Record<string, string> = {}) {
  await setup.harness.api.create(
    { kind: secrets, namespace: "kube-system" },
    {
      metadata: { name: `bootstrap-token-${id}` },
      type: "bootstrap.kubernetes.io/token",
      stringData: { "token-id": id, "token-secret": `${id}0123456789`, "usage-bootstrap-signing": "true", ...data },
    },
  );
}

async function clusterInfoData(): Promise<Record<string, string>> {
  return ((await find(setup.harness.api, clusterInfo))?.data ?? {}) as Record<string, string>;
}

const signatureKeys = async () =>
  Object.keys(await clusterInfoData())
    .filter((k) => k.startsWith("jws-kubeconfig-"))
    .sort();

describe("bootstrap signer", () => {
  it("matches cluster-bootstrap's signatures", () => {
    const content = "Hello from the other side. I must have called a thousand times.";
    const token = { id: "joshua", secret: "my voice is my passcode" };
    expect(detachedSignature(content, token)).toBe(
      "eyJhbGciOiJIUzI1NiIsImtpZCI6Impvc2h1YSJ9..VShe2taLd-YTrmWuRkcL_8QTNDHYxQIEBsAYYiIj1_8",
    );
    expect(detachedSignature("", token)).toBe(
      "eyJhbGciOiJIUzI1NiIsImtpZCI6Impvc2h1YSJ9..7Ui1ALizW4jXphVUB7xUqC9vLYLL9RZeOFfVLoB7Tgk",
    );
  });

  it("creates cluster-info with a kubeconfig naming the server and its CA", async () => {
    await eventually(async () => expect(await clusterInfoData()).toHaveProperty("kubeconfig"));
    const kubeconfig = parse((await clusterInfoData()).kubeconfig as string);
    expect(kubeconfig).toEqual({
      apiVersion: "v1",
      kind: "Config",
      clusters: [
        { name: "", cluster: { server, "certificate-authority-data": Buffer.from(caCert).toString("base64") } },
      ],
      contexts: null,
      "current-context": "",
      preferences: {},
      users: null,
    });
  });

  it("signs the kubeconfig with each signing token so that a client holding the token verifies it", async () => {
    await createToken("abcdef");
    await eventually(async () => expect(await signatureKeys()).toEqual(["jws-kubeconfig-abcdef"]));
    const data = await clusterInfoData();
    const [header, payload, signature] = (data["jws-kubeconfig-abcdef"] as string).split(".");
    expect(payload).toBe("");
    expect(JSON.parse(Buffer.from(header as string, "base64url").toString())).toEqual({ alg: "HS256", kid: "abcdef" });

    // What a joining client does: put the payload back and verify, insisting on HS256.
    const key = new TextEncoder().encode("abcdef0123456789");
    const content = Buffer.from(data.kubeconfig as string).toString("base64url");
    const compact = await compactVerify(`${header}.${content}.${signature}`, key, { algorithms: ["HS256"] });
    expect(new TextDecoder().decode(compact.payload)).toBe(data.kubeconfig);
    const flattened = await flattenedVerify(
      { protected: header as string, payload: content, signature: signature as string },
      key,
      { algorithms: ["HS256"] },
    );
    expect(flattened.protectedHeader).toEqual({ alg: "HS256", kid: "abcdef" });
    await expect(
      compactVerify(`${header}.${content}.${signature}`, new TextEncoder().encode("abcdef.abcdef0123456789")),
    ).rejects.toThrow();
  });

  it("signs only unexpired tokens marked for signing, and drops a signature when its token expires", async () => {
    await createToken("aaaaaa", { expiration: new Date(Date.now() + 500).toISOString() });
    await createToken("bbbbbb", { expiration: new Date(Date.now() - 1000).toISOString() });
    await createToken("cccccc", { "usage-bootstrap-signing": "false" });
    await createToken("dddddd");
    await eventually(async () =>
      expect(await signatureKeys()).toEqual(["jws-kubeconfig-aaaaaa", "jws-kubeconfig-dddddd"]),
    );
    await eventually(async () => expect(await signatureKeys()).toEqual(["jws-kubeconfig-dddddd"]));
  });

  it("removes the signature of a deleted token and signs a changed kubeconfig again", async () => {
    await createToken("abcdef");
    await createToken("fedcba");
    await eventually(async () =>
      expect(await signatureKeys()).toEqual(["jws-kubeconfig-abcdef", "jws-kubeconfig-fedcba"]),
    );
    await setup.harness.api.delete({ kind: secrets, namespace: "kube-system", name: "bootstrap-token-fedcba" });
    await eventually(async () => expect(await signatureKeys()).toEqual(["jws-kubeconfig-abcdef"]));

    const current = structuredClone((await setup.harness.api.get(clusterInfo)).object);
    current.data = { kubeconfig: "apiVersion: v1\nkind: Config\n", "jws-kubeconfig-zzzzzz": "stale", other: "kept" };
    await setup.harness.api.update(clusterInfo, current);
    const token = { id: "abcdef", secret: "abcdef0123456789" };
    await eventually(async () =>
      expect(await clusterInfoData()).toEqual({
        kubeconfig: "apiVersion: v1\nkind: Config\n",
        other: "kept",
        "jws-kubeconfig-abcdef": detachedSignature("apiVersion: v1\nkind: Config\n", token),
      }),
    );
  });

  it("creates cluster-info again when it is deleted, and signs it", async () => {
    await createToken("abcdef");
    await eventually(async () => expect(await signatureKeys()).toEqual(["jws-kubeconfig-abcdef"]));
    const first = await find(setup.harness.api, clusterInfo);
    await setup.harness.api.delete(clusterInfo);
    await eventually(async () => {
      const again = await find(setup.harness.api, clusterInfo);
      expect(metadata(again).uid).not.toBe(metadata(first).uid);
      expect(await signatureKeys()).toEqual(["jws-kubeconfig-abcdef"]);
    });
  });

  it("leaves a cluster-info without a kubeconfig unsigned", async () => {
    await eventually(async () => expect(await clusterInfoData()).toHaveProperty("kubeconfig"));
    const current = structuredClone((await setup.harness.api.get(clusterInfo)).object);
    current.data = { other: "x" };
    await setup.harness.api.update(clusterInfo, current);
    await createToken("abcdef");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await clusterInfoData()).toEqual({ other: "x" });
  });
});
