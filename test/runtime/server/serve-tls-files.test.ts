// --tls-cert-file / --tls-private-key-file: kapi serves the given pair, and refuses bad files with the texts
// kube-apiserver v1.36.2 fails its start with (recorded from it with the same files).
import { execFile } from "node:child_process";
import { X509Certificate } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect } from "node:tls";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseServeFlags } from "../../../runtime/cli/serve-flags.js";
import { createServingCertificates } from "../../../runtime/http/certificates.js";
import { readServingCertificateFiles } from "../../../runtime/http/serving-certificate-files.js";
import { type Serving, serve } from "../../../runtime/server/serve.js";
import { haveKubectl, kubectlPath } from "../../e2e/kubectl-session.js";

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), "kapi-tls-files-"));
const external = createServingCertificates({ dns: ["localhost"], ips: ["127.0.0.1"] });
const other = createServingCertificates({ dns: ["localhost"], ips: ["127.0.0.1"] });
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const chain = file("chain.crt", `${external.cert}${external.caCert}`);
const key = file("serving.key", external.key);
const externalCa = file("external-ca.crt", external.caCert);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function peerCertificate(url: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port), rejectUnauthorized: false }, () => {
      resolve(socket.getPeerX509Certificate()?.fingerprint256 ?? "");
      socket.end();
    });
    socket.on("error", reject);
  });
}

describe("--tls-cert-file and --tls-private-key-file", () => {
  let serving: Serving;
  const dataDir = join(dir, "data");

  beforeAll(async () => {
    const options = parseServeFlags([
      "--secure-port=0",
      `--data-dir=${dataDir}`,
      "--storage=memory",
      `--tls-cert-file=${chain}`,
      `--tls-private-key-file=${key}`,
    ]);
    serving = await serve(options);
  });
  afterAll(async () => {
    await serving.server.close();
  });

  it("serves the given certificate, not the one under --cert-dir", async () => {
    const served = await peerCertificate(serving.server.url);
    expect(served).toBe(new X509Certificate(external.cert).fingerprint256);
    const made = new X509Certificate(readFileSync(join(dataDir, "pki", "apiserver.crt")));
    expect(served).not.toBe(made.fingerprint256);
  });

  it.skipIf(!haveKubectl)("kubectl verifies it with the chain's CA, and not with the cert dir's", async () => {
    const cache = join(dir, "cache");
    mkdirSync(cache, { recursive: true });
    // The admin kubeconfig trusts the chain's CA along with kapi's own.
    const { stdout } = await run(kubectlPath, [
      "--kubeconfig",
      serving.kubeconfigPath,
      "--cache-dir",
      cache,
      "get",
      "ns",
    ]);
    expect(stdout).toContain("kube-system");
    const raw = (ca: string) =>
      run(kubectlPath, [
        "--kubeconfig=/dev/null",
        "--cache-dir",
        cache,
        `--server=${serving.server.url}`,
        `--certificate-authority=${ca}`,
        `--token=${serving.server.adminToken}`,
        "get",
        "--raw",
        "/version",
      ]);
    expect(JSON.parse((await raw(externalCa)).stdout).gitVersion).toMatch(/^v1\.36\./);
    await expect(raw(join(dataDir, "pki", "ca.crt"))).rejects.toMatchObject({
      stderr: expect.stringContaining("x509: certificate signed by unknown authority"),
    });
  });
});

describe("bad serving certificate files fail the start as kube's", () => {
  const keyFile = file("key-only.key", external.key);
  const certFile = file("cert-only.crt", external.cert);
  const cases: [string, string, string, string][] = [
    ["a missing file", join(dir, "nope.crt"), keyFile, `open ${join(dir, "nope.crt")}: no such file or directory`],
    ["a directory", certFile, dir, `read ${dir}: is a directory`],
    ["the certificate alone", certFile, "", "missing filename for serving cert"],
    ["the key alone", "", keyFile, "missing filename for serving cert"],
    [
      "an empty file",
      file("empty.crt", ""),
      keyFile,
      `missing content for serving cert "serving-cert::${join(dir, "empty.crt")}::${keyFile}"`,
    ],
    [
      "no PEM in the certificate",
      file("junk.crt", "hello\n"),
      keyFile,
      "tls: failed to find any PEM data in certificate input",
    ],
    ["no PEM in the key", certFile, file("junk.key", "hello\n"), "tls: failed to find any PEM data in key input"],
    [
      "the key given as the certificate",
      keyFile,
      keyFile,
      "tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched",
    ],
    [
      "another key of the same type",
      certFile,
      file("other.key", other.key),
      "tls: private key does not match public key",
    ],
  ];
  for (const [name, cert, keyPath, text] of cases) {
    it(name, () => {
      expect(() => readServingCertificateFiles(cert, keyPath)).toThrow(text);
    });
  }

  it("a key of another type", async () => {
    const { generateKeyPairSync } = await import("node:crypto");
    const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs1", format: "pem" });
    const rsaKey = file("rsa.key", rsa.toString());
    expect(() => readServingCertificateFiles(certFile, rsaKey)).toThrow(
      "tls: private key type does not match public key type",
    );
  });

  it("refuses before the server starts", async () => {
    const options = parseServeFlags([
      "--secure-port=0",
      `--data-dir=${join(dir, "refused")}`,
      "--storage=memory",
      `--tls-cert-file=${certFile}`,
    ]);
    await expect(serve(options)).rejects.toThrow("missing filename for serving cert");
  });
});
