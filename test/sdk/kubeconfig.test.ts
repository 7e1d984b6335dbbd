import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadKubeconfig } from "../../sdk/kubeconfig.js";

const ca = "-----BEGIN CERTIFICATE-----\nMIIBkTCB+wIJAKapi\n-----END CERTIFICATE-----\n";
const b64 = (s: string) => Buffer.from(s).toString("base64");

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "kapi-kubeconfig-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const base = `apiVersion: v1
kind: Config
clusters:
- name: prod
  cluster:
    server: https://prod.example:6443
    certificate-authority: certs/ca.crt
    tls-server-name: api.prod.example
    disable-compression: true
- name: dev
  cluster:
    server: https://127.0.0.1:6443
    certificate-authority-data: ${b64(ca)}
contexts:
- name: prod-admin
  context:
    cluster: prod
    user: admin
    namespace: payments
- name: dev-plugin
  context:
    cluster: dev
    user: plugin
current-context: prod-admin
users:
- name: admin
  user:
    client-certificate: certs/admin.crt
    client-key-data: ${b64("KEY")}
- name: plugin
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1
      command: bin/plugin
      interactiveMode: Never
      env:
      - name: A
        value: b
`;

describe("kubeconfig loader", () => {
  it("reads the current context's cluster, user and namespace, with paths relative to the file", () => {
    writeFileSync(join(dir, "config"), base);
    const certs = join(dir, "certs");
    mkdirSync(certs);
    writeFileSync(join(certs, "ca.crt"), ca);
    writeFileSync(join(certs, "admin.crt"), "CERT");
    expect(loadKubeconfig({ path: join(dir, "config") })).toEqual({
      context: "prod-admin",
      namespace: "payments",
      cluster: {
        name: "prod",
        server: "https://prod.example:6443",
        certificateAuthorityData: ca,
        insecureSkipTlsVerify: false,
        tlsServerName: "api.prod.example",
        disableCompression: true,
      },
      user: { name: "admin", clientCertificateData: "CERT", clientKeyData: "KEY" },
    });
  });

  it("switches context as --context does and resolves a plugin path with a separator", () => {
    const config = loadKubeconfig({ text: base, baseDir: dir }, { context: "dev-plugin" });
    expect(config).toMatchObject({
      context: "dev-plugin",
      namespace: "default",
      cluster: { name: "dev", server: "https://127.0.0.1:6443", certificateAuthorityData: ca },
      user: {
        name: "plugin",
        exec: {
          command: join(dir, "bin/plugin"),
          args: [],
          env: [{ name: "A", value: "b" }],
          apiVersion: "client.authentication.k8s.io/v1",
          provideClusterInfo: false,
          interactiveMode: "Never",
        },
      },
    });
  });

  it("looks a bare plugin command up in PATH and reads token and tokenFile", () => {
    const text = `clusters:
- name: c
  cluster: {server: "https://h:1", insecure-skip-tls-verify: true}
users:
- name: u
  user:
    token: abc
    tokenFile: token.txt
    exec: {apiVersion: client.authentication.k8s.io/v1beta1, command: aws}
contexts:
- name: x
  context: {cluster: c, user: u}
current-context: x
`;
    const config = loadKubeconfig({ text, baseDir: dir });
    expect(config.cluster.insecureSkipTlsVerify).toBe(true);
    expect(config.user).toMatchObject({ token: "abc", tokenFile: join(dir, "token.txt") });
    expect(config.user.exec).toMatchObject({ command: "aws", interactiveMode: "IfAvailable" });
  });

  const invalid: [string, string, string][] = [
    ["an unknown context", "current-context: nosuch\n", "context was not found for specified context: nosuch"],
    [
      "no context at all",
      "clusters: []\n",
      "invalid configuration: no configuration has been provided, try setting KUBERNETES_MASTER environment variable",
    ],
    [
      "a cluster without server",
      `clusters:\n- name: c\n  cluster: {insecure-skip-tls-verify: true}\ncontexts:\n- name: x\n  context: {cluster: c}\ncurrent-context: x\n`,
      'invalid configuration: no server found for cluster "c"',
    ],
    [
      "CA data and file, a missing CA file, a certificate without key",
      `clusters:\n- name: c\n  cluster: {server: "https://h", certificate-authority: nope.crt, certificate-authority-data: ${b64(ca)}}\nusers:\n- name: u\n  user: {client-certificate-data: ${b64("C")}}\ncontexts:\n- name: x\n  context: {cluster: c, user: u}\ncurrent-context: x\n`,
      "invalid configuration: [client-key-data or client-key must be specified for u to use the clientCert authentication method., certificate-authority-data and certificate-authority are both specified for c. certificate-authority-data will override.]",
    ],
    [
      "an unreadable CA file",
      `clusters:\n- name: c\n  cluster: {server: "https://h", certificate-authority: nope.crt}\ncontexts:\n- name: x\n  context: {cluster: c}\ncurrent-context: x\n`,
      "invalid configuration: unable to read certificate-authority DIR/nope.crt for c due to open DIR/nope.crt: no such file or directory",
    ],
    [
      "a v1 exec stanza without command, interactiveMode or env name",
      `clusters:\n- name: c\n  cluster: {server: "https://h"}\nusers:\n- name: u\n  user:\n    exec: {apiVersion: client.authentication.k8s.io/v1, env: [{value: x}]}\ncontexts:\n- name: x\n  context: {cluster: c, user: u}\ncurrent-context: x\n`,
      "invalid configuration: [command must be specified for u to use exec authentication plugin, env variable name must be specified for u to use exec authentication plugin, interactiveMode must be specified for u to use exec authentication plugin]",
    ],
    [
      "an exec stanza without apiVersion and an unknown interactiveMode",
      `clusters:\n- name: c\n  cluster: {server: "https://h"}\nusers:\n- name: u\n  user:\n    exec: {command: p, interactiveMode: Sometimes}\ncontexts:\n- name: x\n  context: {cluster: c, user: u}\ncurrent-context: x\n`,
      'invalid configuration: [apiVersion must be specified for u to use exec authentication plugin, invalid interactiveMode for u: "Sometimes"]',
    ],
    [
      "a proxy",
      `clusters:\n- name: c\n  cluster: {server: "https://h", proxy-url: "http://proxy:3128"}\ncontexts:\n- name: x\n  context: {cluster: c}\ncurrent-context: x\n`,
      'cluster "c": proxy-url is not supported by this client',
    ],
  ];
  for (const [what, text, message] of invalid) {
    it(`refuses ${what}`, () => {
      expect(() => loadKubeconfig({ text, baseDir: dir })).toThrow(message.replaceAll("DIR", dir));
    });
  }

  it("names a file it cannot read", () => {
    expect(() => loadKubeconfig({ path: join(dir, "missing") })).toThrow(
      `open ${join(dir, "missing")}: no such file or directory`,
    );
  });
});
