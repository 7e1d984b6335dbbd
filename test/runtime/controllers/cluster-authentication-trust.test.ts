// The ConfigMap kube-system/extension-apiserver-authentication as kube-apiserver v1.36.2 keeps it: the
// client CAs under client-ca-file and, with --requestheader-client-ca-file, the front proxy's settings
// (`requestheader-*`, lists as JSON); made again when deleted; what it holds beyond them kept, and what an edit
// drops put back at the next check.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authenticationData } from "../../../runtime/controllers/cluster-authentication-trust.js";
import { createServingCertificates } from "../../../runtime/http/certificates.js";
import { type InProcessServer, startServer } from "../../../runtime/server/start-server.js";
import { eventually } from "./controller-harness.js";

const path = "/api/v1/namespaces/kube-system/configmaps/extension-apiserver-authentication";
const newCa = () => createServingCertificates({ dns: ["localhost"], ips: ["127.0.0.1"] }).caCert;

describe("cluster authentication trust", () => {
  const dir = mkdtempSync(join(tmpdir(), "kapi-h-trust-"));
  const clientCa = newCa();
  const proxyCa = newCa();
  const serving = createServingCertificates({ dns: ["localhost"], ips: ["127.0.0.1"] });
  let server: InProcessServer;
  const data = async (): Promise<Record<string, string> | undefined> => {
    const response = await server.request({ path });
    if (response.status !== 200) return undefined;
    return (JSON.parse(await response.text()) as { data?: Record<string, string> }).data ?? {};
  };

  beforeAll(async () => {
    writeFileSync(join(dir, "client-ca.crt"), clientCa);
    writeFileSync(join(dir, "front-proxy-ca.crt"), proxyCa);
    server = await startServer({
      listen: false,
      certificates: serving,
      log: () => {},
      authentication: {
        clientCaFile: join(dir, "client-ca.crt"),
        requestHeader: {
          clientCaFile: join(dir, "front-proxy-ca.crt"),
          allowedNames: ["front-proxy-client"],
          usernameHeaders: ["X-Remote-User"],
          uidHeaders: ["X-Remote-Uid"],
          groupHeaders: ["X-Remote-Group"],
          extraHeadersPrefix: ["X-Remote-Extra-"],
        },
      },
    });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("publishes the client CAs and the front proxy's settings once the server has started", async () => {
    expect(await data()).toEqual({
      "client-ca-file": clientCa + serving.caCert,
      "requestheader-client-ca-file": proxyCa,
      "requestheader-allowed-names": '["front-proxy-client"]',
      "requestheader-username-headers": '["X-Remote-User"]',
      "requestheader-uid-headers": '["X-Remote-Uid"]',
      "requestheader-group-headers": '["X-Remote-Group"]',
      "requestheader-extra-headers-prefix": '["X-Remote-Extra-"]',
    });
  });

  it("makes the ConfigMap again when it is deleted", async () => {
    const before = await data();
    expect((await server.request({ method: "DELETE", path })).status).toBe(200);
    const after = await eventually(async () => {
      const now = await data();
      if (now === undefined) throw new Error("not made again yet");
      return now;
    });
    expect(after).toEqual(before);
  });

  it("merges what the ConfigMap holds with what the server requires, as kube does", () => {
    const other = newCa();
    const merged = authenticationData(
      {
        "client-ca-file": other,
        "requestheader-client-ca-file": proxyCa,
        "requestheader-username-headers": '["X-Other-User"]',
        "requestheader-group-headers": '["X-Remote-Group"]',
      },
      {
        clientCa,
        requestHeader: {
          clientCa: proxyCa,
          allowedNames: [],
          usernameHeaders: ["X-Remote-User"],
          uidHeaders: [],
          groupHeaders: ["X-Remote-Group"],
          extraHeadersPrefix: [],
        },
      },
      true,
    );
    expect(merged).toEqual({
      "client-ca-file": other + clientCa,
      "requestheader-client-ca-file": proxyCa,
      "requestheader-allowed-names": "[]",
      "requestheader-username-headers": '["X-Other-User","X-Remote-User"]',
      "requestheader-group-headers": '["X-Remote-Group"]',
      "requestheader-extra-headers-prefix": "[]",
    });
    // Without a front proxy CA anywhere only the client CAs are published.
    expect(authenticationData({}, { clientCa }, true)).toEqual({ "client-ca-file": clientCa });
  });
});
