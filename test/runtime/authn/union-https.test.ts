// The composed authenticator behind a real HTTPS server that asks for client certificates, as kube-apiserver
// serves: client certificates (with intermediates), the token file, the authenticating proxy and anonymous.
import { execFile, spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import type { OutgoingHttpHeaders } from "node:http";
import { createServer, request, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { credentialIdKey } from "../../../runtime/authn/client-certificate.js";
import { buildAuthentication } from "../../../runtime/authn/union-authenticator.js";
import { createServingCertificates } from "../../../runtime/http/certificates.js";
import { authenticationRequest } from "../../../runtime/server/stages/authentication-stage.js";
import { issueCa, issueCertificate, type TestCertificate } from "./test-certificates.js";

const serving = createServingCertificates({ dns: ["localhost"], ips: ["127.0.0.1"] });
const clientCa = issueCa("client-ca");
const intermediate = issueCa("client-intermediate", {}, clientCa);
const proxyCa = issueCa("front-proxy-ca");
const dir = mkdtempSync(join(tmpdir(), "kapi-authn-https-"));
let server: Server;
let port: number;
const kubectl = spawnSync("kubectl", ["version", "--client"], { stdio: "ignore" }).status === 0;

interface Answer {
  status: number;
  user?: { name: string; groups: string[]; uid?: string; extra?: Record<string, string[]> };
  /** The headers the handler still saw after authentication. */
  leftover?: string[];
}

beforeAll(async () => {
  writeFileSync(join(dir, "client-ca.crt"), clientCa.cert);
  writeFileSync(join(dir, "front-proxy-ca.crt"), proxyCa.cert);
  writeFileSync(join(dir, "tokens.csv"), 'file-token,alice,u-alice,"dev,ops"\n');
  const { authenticator, tlsOptions } = buildAuthentication({
    anonymous: { enabled: true },
    clientCaFile: join(dir, "client-ca.crt"),
    tokenAuthFile: join(dir, "tokens.csv"),
    requestHeader: {
      clientCaFile: join(dir, "front-proxy-ca.crt"),
      allowedNames: ["front-proxy-client"],
      usernameHeaders: ["X-Remote-User"],
      uidHeaders: ["X-Remote-Uid"],
      groupHeaders: ["X-Remote-Group"],
      extraHeadersPrefix: ["X-Remote-Extra-"],
    },
  });
  server = createServer({ cert: serving.cert, key: serving.key, ...tlsOptions }, (req, res) => {
    const path = new URL(req.url ?? "/", "https://localhost").pathname;
    authenticator
      .authenticate(authenticationRequest(req, path))
      .then(
        (result): Answer =>
          result === undefined
            ? { status: 401 }
            : {
                status: 200,
                user: result.user,
                leftover: Object.keys(req.headers).filter((h) => h.startsWith("x-remote") || h === "authorization"),
              },
        (): Answer => ({ status: 401 }),
      )
      .then((answer) => {
        res.writeHead(answer.status, { "content-type": "application/json" });
        res.end(JSON.stringify(answer));
      });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

function call(
  options: { client?: TestCertificate; chain?: TestCertificate[]; headers?: OutgoingHttpHeaders; path?: string } = {},
): Promise<Answer> {
  const { client, chain = [], headers = {}, path = "/api" } = options;
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path,
        ca: serving.caCert,
        agent: false,
        headers,
        ...(client === undefined ? {} : { cert: [client, ...chain].map((c) => c.cert).join(""), key: client.key }),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")) as Answer));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

describe("the composed authenticator over HTTPS", () => {
  it("authenticates a client certificate: CN the user, O the groups, plus system:authenticated", async () => {
    const jane = issueCertificate({ commonName: "jane", organizations: ["dev", "qa"] }, clientCa);
    const answer = await call({ client: jane });
    expect(answer.status).toBe(200);
    expect(answer.user?.name).toBe("jane");
    expect(answer.user?.groups).toEqual(["dev", "qa", "system:authenticated"]);
    expect(answer.user?.extra?.[credentialIdKey]?.[0]).toMatch(/^X509SHA256=[0-9a-f]{64}$/);
  });

  it("follows the intermediates the client sends", async () => {
    const joe = issueCertificate({ commonName: "joe" }, intermediate);
    expect((await call({ client: joe, chain: [intermediate] })).user?.name).toBe("joe");
  });

  it("authenticates a token of the token file and removes the Authorization header", async () => {
    const answer = await call({ headers: { authorization: "Bearer file-token" } });
    expect(answer.user).toEqual({ name: "alice", uid: "u-alice", groups: ["dev", "ops", "system:authenticated"] });
    expect(answer.leftover).toEqual([]);
  });

  it("refuses a bad token and an unverifiable certificate with 401, never anonymous", async () => {
    expect((await call({ headers: { authorization: "Bearer wrong" } })).status).toBe(401);
    const mallory = issueCertificate({ commonName: "mallory" }, issueCa("client-ca"));
    expect((await call({ client: mallory })).status).toBe(401);
  });

  it("lets a good token win over a certificate that does not verify", async () => {
    const mallory = issueCertificate({ commonName: "mallory" }, issueCa("elsewhere"));
    const answer = await call({ client: mallory, headers: { authorization: "Bearer file-token" } });
    expect(answer.user?.name).toBe("alice");
  });

  it("makes a request without credentials anonymous", async () => {
    expect((await call()).user).toEqual({ name: "system:anonymous", groups: ["system:unauthenticated"] });
  });

  it("takes the user from an authenticating proxy's headers, repeated lines apart, and removes them", async () => {
    const proxy = issueCertificate({ commonName: "front-proxy-client" }, proxyCa);
    const answer = await call({
      client: proxy,
      headers: {
        "X-Remote-User": "jane",
        "X-Remote-Uid": "u-jane",
        "X-Remote-Group": ["dev", "on call"],
        "X-Remote-Extra-Acme.com%2Fteam": ["a", "b"],
      },
    });
    expect(answer.user).toEqual({
      name: "jane",
      uid: "u-jane",
      groups: ["dev", "on call", "system:authenticated"],
      extra: { "acme.com/team": ["a", "b"] },
    });
    expect(answer.leftover).toEqual([]);
  });

  it("refuses a proxy whose name is not allowed", async () => {
    const other = issueCertificate({ commonName: "someone-else" }, proxyCa);
    expect((await call({ client: other, headers: { "X-Remote-User": "jane" } })).status).toBe(401);
  });

  it("ignores proxy headers from a client that is no proxy, and removes them", async () => {
    const joe = issueCertificate({ commonName: "joe" }, clientCa);
    const answer = await call({
      client: joe,
      headers: { "X-Remote-User": "admin", "X-Remote-Group": "system:masters" },
    });
    expect(answer.user?.name).toBe("joe");
    expect(answer.user?.groups).toEqual(["system:authenticated"]);
    expect(answer.leftover).toEqual([]);
  });

  it.skipIf(!kubectl)("authenticates kubectl (a Go client) by its client certificate", async () => {
    const jane = issueCertificate({ commonName: "jane", organizations: ["dev"] }, clientCa);
    const base64 = (text: string) => Buffer.from(text).toString("base64");
    const config = join(dir, "jane.kubeconfig");
    writeFileSync(
      config,
      `apiVersion: v1
kind: Config
clusters: [{name: kapi, cluster: {server: "https://127.0.0.1:${port}", certificate-authority-data: ${base64(serving.caCert)}}}]
users: [{name: jane, user: {client-certificate-data: ${base64(jane.cert)}, client-key-data: ${base64(jane.key)}}}]
contexts: [{name: jane, context: {cluster: kapi, user: jane}}]
current-context: jane
`,
    );
    const output = await new Promise<string>((resolve, reject) =>
      execFile("kubectl", ["--kubeconfig", config, "get", "--raw", "/api"], (error, stdout) =>
        error ? reject(error) : resolve(stdout),
      ),
    );
    expect((JSON.parse(output) as Answer).user?.name).toBe("jane");
  });
});
