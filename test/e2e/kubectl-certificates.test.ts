// CertificateSigningRequests end to end through kubectl, each answer compared with kube-apiserver v1.36's
// (with kube-controller-manager's csrsigning) to the same commands: a create records the requester, `kubectl
// certificate approve` goes through the approval subresource, the signer issues a certificate from the
// server's CA, and that certificate authenticates its subject.
import { execFile } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { haveKubectl, type KubectlSession, startKubectlSession } from "./kubectl-session.js";

const run = promisify(execFile);
const openssl = "/usr/bin/openssl";

async function csrFor(dir: string, name: string, subject: string): Promise<{ key: string; request: string }> {
  const key = join(dir, `${name}.key`);
  const request = join(dir, `${name}.csr`);
  await run(openssl, ["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", key]);
  await run(openssl, ["req", "-new", "-key", key, "-subj", subject, "-out", request]);
  return { key, request: readFileSync(request).toString("base64") };
}

function manifest(name: string, request: string, signerName: string): string {
  return [
    "apiVersion: certificates.k8s.io/v1",
    "kind: CertificateSigningRequest",
    "metadata:",
    `  name: ${name}`,
    "spec:",
    `  request: ${request}`,
    `  signerName: ${signerName}`,
    "  expirationSeconds: 86400",
    "  usages: [client auth]",
    "  username: someone-else",
  ].join("\n");
}

describe.skipIf(!haveKubectl || !existsSync(openssl))("kubectl certificate approve", () => {
  let session: KubectlSession;
  beforeAll(async () => {
    session = await startKubectlSession();
  });
  afterAll(async () => {
    await session?.close();
  });

  it("records the requester, approves, signs, and the certificate authenticates its subject", async () => {
    const { key, request } = await csrFor(session.dir, "user1", "/CN=f-user1/O=f-group1/O=f-group2");
    const created = JSON.parse(
      await session.kubectl(
        "create",
        "-o",
        "json",
        "-f",
        session.file("csr1.yaml", manifest("f-csr1", request, "kubernetes.io/kube-apiserver-client")),
      ),
    );
    // The reference records its admin (token user "admin"); kapi's admin is kapi-admin.
    expect(created.spec.username).toBe("kapi-admin");
    expect(created.spec.groups).toEqual(["system:masters", "system:authenticated"]);
    expect(created.status).toEqual({});

    expect(await session.kubectl("certificate", "approve", "f-csr1")).toBe(
      "certificatesigningrequest.certificates.k8s.io/f-csr1 approved\n",
    );
    let csr: {
      status: { certificate?: string; conditions: Record<string, string>[] };
    } = { status: { conditions: [] } };
    for (let i = 0; i < 100 && csr.status.certificate === undefined; i++) {
      csr = JSON.parse(await session.kubectl("get", "csr", "f-csr1", "-o", "json"));
      if (csr.status.certificate === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const [condition] = csr.status.conditions;
    expect(condition).toMatchObject({
      type: "Approved",
      status: "True",
      reason: "KubectlApprove",
      message: "This CSR was approved by kubectl certificate approve.",
    });
    // kubectl stamps lastUpdateTime with its own clock and the server stamps lastTransitionTime,
    // so the two can straddle a second boundary.
    const stamped = Date.parse(condition?.lastTransitionTime ?? "");
    expect(Math.abs(Date.parse(condition?.lastUpdateTime ?? "") - stamped)).toBeLessThanOrEqual(2000);
    expect(await session.kubectl("get", "csr", "f-csr1", "--no-headers")).toMatch(
      /^f-csr1\s+\S+\s+kubernetes\.io\/kube-apiserver-client\s+kapi-admin\s+24h\s+Approved,Issued\n$/,
    );

    const certificate = join(session.dir, "user1.crt");
    writeFileSync(certificate, Buffer.from(csr.status.certificate ?? "", "base64"));
    const text = (await run(openssl, ["x509", "-in", certificate, "-noout", "-text"])).stdout;
    // As the reference's: the organizations in one relative name, client auth only, not a CA, 24h less 5m.
    expect(text).toContain("Subject: O = f-group1 + O = f-group2, CN = f-user1");
    expect(text).toMatch(/X509v3 Extended Key Usage: \n\s+TLS Web Client Authentication/);
    expect(text).toMatch(/X509v3 Basic Constraints: critical\n\s+CA:FALSE/);
    expect(text).not.toContain("X509v3 Key Usage");
    const dates = (await run(openssl, ["x509", "-in", certificate, "-noout", "-startdate", "-enddate"])).stdout;
    const [start, end] = dates.split("\n").map((line) => Date.parse(line.slice(line.indexOf("=") + 1)));
    expect((end ?? 0) - (start ?? 0)).toBe(24 * 3_600_000);

    await session.kubectl(
      "config",
      "set-credentials",
      "f-user1",
      `--client-certificate=${certificate}`,
      `--client-key=${key}`,
    );
    const review = JSON.parse(await session.kubectl("--user", "f-user1", "auth", "whoami", "-o", "json"));
    expect(review.status.userInfo.username).toBe("f-user1");
    expect(review.status.userInfo.groups).toEqual(["f-group1", "f-group2", "system:authenticated"]);
  });

  it("refuses a kube-apiserver-client request for system:masters, as kube's CertificateSubjectRestriction", async () => {
    const { request } = await csrFor(session.dir, "root", "/CN=f-root/O=system:masters");
    const error = await session.kubectlError(
      "create",
      "-f",
      session.file("csr3.yaml", manifest("f-csr3", request, "kubernetes.io/kube-apiserver-client")),
    );
    expect(error).toContain(
      `Error from server (Forbidden): error when creating "${join(session.dir, "csr3.yaml")}": certificatesigningrequests.certificates.k8s.io "f-csr3" is forbidden: use of kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed`,
    );
  });

  it("refuses approval to a user without approve on the signer, as kube's CertificateApproval", async () => {
    const { request } = await csrFor(session.dir, "user2", "/CN=f-user2");
    await session.kubectl(
      "create",
      "-f",
      session.file("csr2.yaml", manifest("f-csr2", request, "example.com/f-signer")),
    );
    await session.kubectl(
      "create",
      "clusterrole",
      "f-approver",
      "--verb=get,list,update",
      "--resource=certificatesigningrequests,certificatesigningrequests/approval,certificatesigningrequests/status",
    );
    await session.kubectl("create", "clusterrolebinding", "f-approver", "--clusterrole=f-approver", "--user=f-nobody");
    for (const verb of ["approve", "deny"]) {
      expect(await session.kubectlError("certificate", verb, "f-csr2", "--as", "f-nobody")).toBe(
        'Error from server (Forbidden): certificatesigningrequests.certificates.k8s.io "f-csr2" is forbidden: user not permitted to approve requests with signerName "example.com/f-signer"\n',
      );
    }
  });
});
