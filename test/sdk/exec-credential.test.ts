import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import type { TLSSocket } from "node:tls";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createServingCertificates, issueClientCertificate } from "../../runtime/http/certificates.js";
import { ClientCredentials } from "../../sdk/credentials.js";
import type { ExecPluginOptions } from "../../sdk/exec-credential.js";
import { loadKubeconfig } from "../../sdk/kubeconfig.js";
import { requestJson } from "../../sdk/request.js";
import { type ExecPluginFixture, writeExecPlugin } from "./exec-plugin-fixture.js";

const certificates = createServingCertificates({ dns: ["localhost"], ips: ["127.0.0.1"] });
const clientCert = issueClientCertificate(
  { cert: certificates.caCert, key: certificates.caKey as string },
  { commonName: "exec-user", organizations: ["plugin-group"] },
);

/** Answers 200 with who it saw to the accepted token or any client certificate, 401 to anything else. */
let accepted = "token-1";
let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer(
    {
      cert: certificates.cert,
      key: certificates.key,
      ca: certificates.caCert,
      requestCert: true,
      rejectUnauthorized: false,
    },
    (req, res) => {
      const peer = (req.socket as TLSSocket).getPeerCertificate();
      const token = /^Bearer (.*)$/.exec(req.headers.authorization ?? "")?.[1];
      res.setHeader("content-type", "application/json");
      if (peer?.subject?.CN !== undefined) {
        res.end(JSON.stringify({ user: peer.subject.CN, authorization: req.headers.authorization ?? null }));
      } else if (token === accepted) {
        res.end(JSON.stringify({ token }));
      } else {
        res.statusCode = 401;
        res.end(
          JSON.stringify({ kind: "Status", apiVersion: "v1", status: "Failure", reason: "Unauthorized", code: 401 }),
        );
      }
    },
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

let plugin: ExecPluginFixture;
afterEach(() => {
  plugin.remove();
  accepted = "token-1";
});

interface ExecStanza {
  apiVersion?: string;
  interactiveMode?: string;
  provideClusterInfo?: boolean;
  env?: Record<string, string>;
  command?: string;
  installHint?: string;
}

function kubeconfig(exec: ExecStanza, extraUser = ""): string {
  const env = Object.entries(exec.env ?? {})
    .map(([name, value]) => `\n      - name: ${name}\n        value: "${value}"`)
    .join("");
  return `apiVersion: v1
kind: Config
clusters:
- name: local
  cluster:
    server: ${url}
    certificate-authority-data: ${Buffer.from(certificates.caCert).toString("base64")}
    tls-server-name: localhost
    extensions:
    - name: client.authentication.k8s.io/exec
      extension:
        audience: kapi-test
contexts:
- name: local
  context:
    cluster: local
    user: plugin
current-context: local
users:
- name: plugin
  user:${extraUser}
    exec:
      apiVersion: ${exec.apiVersion ?? "client.authentication.k8s.io/v1"}
      command: ${exec.command ?? "./plugin.js"}
      args: ["--audience", "kapi"]
${exec.interactiveMode === undefined ? "" : `      interactiveMode: ${exec.interactiveMode}\n`}${
  exec.installHint === undefined ? "" : `      installHint: ${JSON.stringify(exec.installHint)}\n`
}      provideClusterInfo: ${exec.provideClusterInfo ?? true}
      env:
      - name: PLUGIN_EXTRA
        value: extra-value${env}
`;
}

function client(exec: ExecStanza, options: ExecPluginOptions = { stdinIsTerminal: false }, extraUser = "") {
  const config = loadKubeconfig({ text: kubeconfig(exec, extraUser), baseDir: plugin.dir });
  return new ClientCredentials(config, { exec: options });
}

describe("exec credential plugins", () => {
  it("runs the plugin once for many requests and hands it KUBERNETES_EXEC_INFO, args and env", async () => {
    plugin = writeExecPlugin();
    const credentials = client({ interactiveMode: "Never" });
    for (let i = 0; i < 3; i++) {
      const response = await requestJson(credentials, { path: "/api" });
      expect(response).toMatchObject({ status: 200, body: { token: "token-1" } });
    }
    expect(plugin.runs()).toBe(1);
    expect(plugin.input(1)).toEqual({
      info: {
        kind: "ExecCredential",
        apiVersion: "client.authentication.k8s.io/v1",
        spec: {
          cluster: {
            server: url,
            "tls-server-name": "localhost",
            "certificate-authority-data": Buffer.from(certificates.caCert).toString("base64"),
            config: { audience: "kapi-test" },
          },
          interactive: false,
        },
      },
      args: ["--audience", "kapi"],
      extra: "extra-value",
      stdin: "",
    });
  });

  it("shares the cached credentials between clients of the same configuration", async () => {
    plugin = writeExecPlugin();
    expect((await requestJson(client({ interactiveMode: "Never" }), { path: "/" })).status).toBe(200);
    expect((await requestJson(client({ interactiveMode: "Never" }), { path: "/" })).status).toBe(200);
    expect(plugin.runs()).toBe(1);
  });

  it("runs the plugin again after a 401 and retries the request once with the new token", async () => {
    plugin = writeExecPlugin();
    const credentials = client({ interactiveMode: "Never" });
    expect((await requestJson(credentials, { path: "/" })).body).toEqual({ token: "token-1" });
    accepted = "token-2";
    expect(await requestJson(credentials, { path: "/" })).toMatchObject({ status: 200, body: { token: "token-2" } });
    expect(plugin.runs()).toBe(2);
    expect(await requestJson(credentials, { path: "/" })).toMatchObject({ status: 200 });
    expect(plugin.runs()).toBe(2);

    accepted = "nobody";
    expect((await requestJson(credentials, { path: "/" })).status).toBe(401);
    expect(plugin.runs()).toBe(3);
  });

  it("runs the plugin again once the credentials expire", async () => {
    plugin = writeExecPlugin();
    const credentials = client({ interactiveMode: "Never", env: { PLUGIN_TTL_MS: "1000" } });
    accepted = "token-1";
    await requestJson(credentials, { path: "/" });
    await requestJson(credentials, { path: "/" });
    expect(plugin.runs()).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    accepted = "token-2";
    expect((await requestJson(credentials, { path: "/" })).body).toEqual({ token: "token-2" });
    expect(plugin.runs()).toBe(2);
  });

  it("speaks v1beta1, where interactiveMode defaults to IfAvailable, without cluster info unless asked", async () => {
    plugin = writeExecPlugin();
    const credentials = client({ apiVersion: "client.authentication.k8s.io/v1beta1", provideClusterInfo: false });
    expect(credentials.config.user.exec?.interactiveMode).toBe("IfAvailable");
    expect((await requestJson(credentials, { path: "/" })).status).toBe(200);
    expect(plugin.input(1).info).toEqual({
      kind: "ExecCredential",
      apiVersion: "client.authentication.k8s.io/v1beta1",
      spec: { interactive: false },
    });
  });

  const stdinCases: [string, boolean, string][] = [
    ["IfAvailable", true, "typed-token"],
    ["Never", false, "token-1"],
  ];
  for (const [mode, interactive, token] of stdinCases) {
    it(`${interactive ? "passes" : "does not pass"} stdin in interactiveMode ${mode} on a terminal`, async () => {
      plugin = writeExecPlugin();
      accepted = token;
      const credentials = client(
        { interactiveMode: mode, provideClusterInfo: false },
        { stdinIsTerminal: true, stdin: Readable.from(["typed-token\n"]) },
      );
      expect((await requestJson(credentials, { path: "/" })).body).toEqual({ token });
      expect(plugin.input(1)).toMatchObject({
        info: { spec: { interactive } },
        stdin: interactive ? "typed-token\n" : "",
      });
    });
  }

  it("refuses interactiveMode Always without a terminal", async () => {
    plugin = writeExecPlugin();
    await expect(requestJson(client({ interactiveMode: "Always" }), { path: "/" })).rejects.toThrow(
      "getting credentials: exec plugin cannot support interactive mode: standard input is not a terminal",
    );
    expect(plugin.runs()).toBe(0);
  });

  it("uses a client certificate and key from the plugin", async () => {
    plugin = writeExecPlugin({ "client.crt": clientCert.cert, "client.key": clientCert.key });
    const credentials = client({ interactiveMode: "Never", env: { PLUGIN_MODE: "cert" } });
    expect((await requestJson(credentials, { path: "/" })).body).toEqual({ user: "exec-user", authorization: null });
  });

  it("prefers the user's own token to the plugin", async () => {
    plugin = writeExecPlugin();
    const credentials = client({ interactiveMode: "Never" }, {}, "\n    token: token-1");
    expect((await requestJson(credentials, { path: "/" })).body).toEqual({ token: "token-1" });
    expect(plugin.runs()).toBe(0);
  });

  it("names the install hint when the command cannot be run", async () => {
    plugin = writeExecPlugin();
    const credentials = client({
      interactiveMode: "Never",
      command: "./missing-plugin",
      installHint: "Install missing-plugin with: npm i -g missing-plugin",
    });
    const error = await requestJson(credentials, { path: "/" }).catch((e: Error) => e);
    expect((error as Error).message).toBe(
      `getting credentials: exec: executable ${plugin.dir}/missing-plugin not found

It looks like you are trying to use a client-go credential plugin that is not installed.

To learn more about this feature, consult the documentation available at:
      https://kubernetes.io/docs/reference/access-authn-authz/authentication/#client-go-credential-plugins

Install missing-plugin with: npm i -g missing-plugin`,
    );
  });

  const failures: [string, ExecStanza, string][] = [
    [
      "exits with an error",
      { env: { PLUGIN_MODE: "fail" } },
      "getting credentials: exec: executable PLUGIN failed with exit code 3",
    ],
    [
      "answers in another version",
      { env: { PLUGIN_API_VERSION: "client.authentication.k8s.io/v1beta1" } },
      "getting credentials: exec plugin is configured to use API version client.authentication.k8s.io/v1, plugin returned version client.authentication.k8s.io/v1beta1",
    ],
    [
      "returns no status",
      { env: { PLUGIN_MODE: "no-status" } },
      "getting credentials: exec plugin didn't return a status field",
    ],
    [
      "returns a certificate without its key",
      { env: { PLUGIN_MODE: "cert-only" } },
      "getting credentials: exec plugin returned only certificate or key, not both",
    ],
  ];
  for (const [why, exec, message] of failures) {
    it(`fails with client-go's error when the plugin ${why}`, async () => {
      plugin = writeExecPlugin({ "client.crt": clientCert.cert });
      const credentials = client({ interactiveMode: "Never", ...exec });
      await expect(requestJson(credentials, { path: "/" })).rejects.toThrow(message.replace("PLUGIN", plugin.command));
    });
  }

  it("refuses an unknown exec apiVersion", () => {
    plugin = writeExecPlugin();
    expect(() => client({ apiVersion: "client.authentication.k8s.io/v2", interactiveMode: "Never" })).toThrow(
      'exec plugin: invalid apiVersion "client.authentication.k8s.io/v2"',
    );
  });
});
