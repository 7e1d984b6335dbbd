// The CertificateSigningRequest strategy over the in-process server, every answer compared with kube-apiserver
// v1.36's to the same request (recorded; uids, times and resourceVersions left out).
import { generateKeyPairSync, sign } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bitString, contextTag, oid, sequence, set, smallInteger, utf8String } from "../../../runtime/http/der.js";
import { type InProcessServer, startServer } from "../../../runtime/index.js";

const path = "/apis/certificates.k8s.io/v1/certificatesigningrequests";

/** A PKCS#10 request for `/CN=<cn>/O=<o>…`, signed with a new P-256 key, as PEM. */
function certificateRequest(commonName: string, organizations: string[] = []): string {
  const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const subject = sequence(
    ...organizations.map((o) => set(sequence(oid("2.5.4.10"), utf8String(o)))),
    set(sequence(oid("2.5.4.3"), utf8String(commonName))),
  );
  const info = sequence(
    smallInteger(0),
    subject,
    publicKey.export({ type: "spki", format: "der" }),
    contextTag(0, Buffer.alloc(0), true),
  );
  const algorithm = sequence(oid("1.2.840.10045.4.3.2"));
  const der = sequence(info, algorithm, bitString(sign("sha256", info, privateKey)));
  const lines = der.toString("base64").match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE REQUEST-----\n${lines.join("\n")}\n-----END CERTIFICATE REQUEST-----\n`;
}

const request = Buffer.from(certificateRequest("f-user1", ["f-group1"])).toString("base64");

function csr(name: string, spec: Record<string, unknown>, status?: Record<string, unknown>): Record<string, unknown> {
  return {
    apiVersion: "certificates.k8s.io/v1",
    kind: "CertificateSigningRequest",
    metadata: { name },
    spec: { request, signerName: "example.com/f-signer", usages: ["client auth"], ...spec },
    ...(status === undefined ? {} : { status }),
  };
}

interface Answer {
  code: number;
  message?: string;
  object: Record<string, { [key: string]: unknown }>;
}

describe("certificatesigningrequests", () => {
  let server: InProcessServer;
  beforeAll(async () => {
    server = await startServer({ listen: false, controllers: { csrSigning: false } });
  });
  afterAll(() => server.close());

  async function call(method: string, at: string, body?: object): Promise<Answer> {
    const res = await server.request({ method, path: at, ...(body === undefined ? {} : { body }) });
    const object = (await res.json()) as Answer["object"];
    return { code: res.status, message: object.message as unknown as string, object };
  }

  it("records the requester over what the body says and starts with an empty status", async () => {
    const created = await call(
      "POST",
      path,
      csr("f-csr1", { username: "bogus", groups: ["x"] }, { conditions: [{ type: "Approved", status: "True" }] }),
    );
    expect(created.code).toBe(201);
    expect(created.object.spec).toMatchObject({
      username: "kapi-admin",
      groups: ["system:masters", "system:authenticated"],
    });
    expect(created.object.status).toEqual({});
  });

  it("validates as kube: the request, usages, signer name, duration (any name)", async () => {
    const hello = Buffer.from("hello").toString("base64");
    let answer = await call(
      "POST",
      `${path}?dryRun=All`,
      csr("f-x", { request: "aGVsbG8=", signerName: "foo", usages: [] }),
    );
    expect(answer.code).toBe(422);
    expect(answer.message).toBe(
      `CertificateSigningRequest.certificates.k8s.io "f-x" is invalid: [spec.request: Invalid value: "aGVsbG8=": PEM block type must be CERTIFICATE REQUEST, spec.usages: Required value, spec.signerName: Invalid value: "foo": must be a fully qualified domain and path of the form 'example.com/signer-name']`,
    );
    const bad = Buffer.from(
      `-----BEGIN CERTIFICATE REQUEST-----\n${hello}\n-----END CERTIFICATE REQUEST-----\n`,
    ).toString("base64");
    answer = await call(
      "POST",
      `${path}?dryRun=All`,
      csr("F_x", {
        request: bad,
        signerName: "kubernetes.io/legacy-unknown",
        usages: ["client auth", "client auth", "bogus"],
        expirationSeconds: 100,
      }),
    );
    expect(answer.message).toBe(
      `CertificateSigningRequest.certificates.k8s.io "F_x" is invalid: [spec.request: Invalid value: "${bad}": asn1: structure error: tags don't match (16 vs {class:1 tag:8 length:101 isCompound:true}) {optional:false explicit:false application:false private:false defaultValue:<nil> tag:<nil> stringType:0 timeType:0 set:false omitEmpty:false} certificateRequest @2, spec.usages[2]: Unsupported value: "bogus": supported values: "any", "cert sign", "client auth", "code signing", "content commitment", "crl sign", "data encipherment", "decipher only", "digital signature", "email protection", "encipher only", "ipsec end system", "ipsec tunnel", "ipsec user", "key agreement", "key encipherment", "microsoft sgc", "netscape sgc", "ocsp signing", "s/mime", "server auth", "signing", "timestamping", spec.usages[1]: Duplicate value: "client auth", spec.signerName: Invalid value: "kubernetes.io/legacy-unknown": the legacy signerName is not allowed via this API version, spec.expirationSeconds: Invalid value: 100: may not specify a duration less than 600 seconds (10 minutes)]`,
    );
    answer = await call("POST", `${path}?dryRun=All`, csr("f-x", { signerName: "Foo_x/B_b" }));
    expect(answer.message).toBe(
      `CertificateSigningRequest.certificates.k8s.io "f-x" is invalid: [spec.signerName: Invalid value: "Foo_x": validating label "Foo_x": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?'), spec.signerName: Invalid value: "Foo_x": should be a domain with at least two segments separated by dots, spec.signerName: Invalid value: "B_b": validating label "B_b": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')]`,
    );
    answer = await call("POST", `${path}?dryRun=All`, csr("f-x", { signerName: "a/b/c" }));
    expect(answer.message).toBe(
      `CertificateSigningRequest.certificates.k8s.io "f-x" is invalid: spec.signerName: Invalid value: "a/b/c": must be a fully qualified domain and path of the form 'example.com/signer-name'`,
    );
  });

  it("keeps Approved and Denied to the approval subresource, and the certificate to status", async () => {
    const stored = (await call("POST", path, csr("f-csr2", {}))).object;
    const withConditions = (conditions: unknown[]) => ({ ...stored, status: { conditions } });
    let answer = await call(
      "PUT",
      `${path}/f-csr2/status`,
      withConditions([{ type: "Approved", status: "True", reason: "X" }]),
    );
    expect(answer.message).toBe(
      `CertificateSigningRequest.certificates.k8s.io "f-csr2" is invalid: status.conditions: Forbidden: updates may not add a condition of type "Approved"`,
    );
    answer = await call(
      "PUT",
      `${path}/f-csr2/approval`,
      withConditions([
        { type: "Approved", status: "True", reason: "X" },
        { type: "Denied", status: "True" },
      ]),
    );
    expect(answer.message).toBe(
      `CertificateSigningRequest.certificates.k8s.io "f-csr2" is invalid: status.conditions: Invalid value: "Denied": Approved and Denied conditions are mutually exclusive`,
    );
    answer = await call(
      "PUT",
      `${path}/f-csr2/approval`,
      withConditions([
        { type: "Approved", status: "False", reason: "X" },
        { type: "", status: "Maybe" },
      ]),
    );
    expect(answer.message).toBe(
      `CertificateSigningRequest.certificates.k8s.io "f-csr2" is invalid: [status.conditions[0].status: Unsupported value: "False": supported values: "True", status.conditions[1].type: Required value, status.conditions[1].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown"]`,
    );
    answer = await call("PUT", `${path}/f-csr2/status`, { ...stored, status: { certificate: "aGVsbG8=" } });
    expect(answer.message).toBe(
      `CertificateSigningRequest.certificates.k8s.io "f-csr2" is invalid: status.certificate: Invalid value: "<certificate data>": must contain at least one CERTIFICATE PEM block`,
    );
    const approved = await call("PUT", `${path}/f-csr2/approval`, {
      ...withConditions([{ type: "Approved", status: "True", reason: "KubectlApprove" }]),
      spec: { ...stored.spec, usages: ["server auth"] },
    });
    expect(approved.code).toBe(200);
    const [condition] = (approved.object.status?.conditions ?? []) as Record<string, string>[];
    expect(condition?.lastUpdateTime).toMatch(/Z$/);
    expect(condition?.lastTransitionTime).toBe(condition?.lastUpdateTime);
    expect(approved.object.spec?.usages).toEqual(["client auth"]);
    // Through status the stored Approved condition stays as it was; removing it is refused.
    const kept = await call("PUT", `${path}/f-csr2/status`, {
      ...approved.object,
      status: { conditions: [{ ...condition, message: "changed" }] },
    });
    expect(((kept.object.status?.conditions ?? []) as Record<string, string>[])[0]?.message).toBeUndefined();
    answer = await call("PUT", `${path}/f-csr2/approval`, { ...kept.object, status: { conditions: [] } });
    expect(answer.message).toBe(
      `CertificateSigningRequest.certificates.k8s.io "f-csr2" is invalid: status.conditions: Forbidden: updates may not remove a condition of type "Approved"`,
    );
  });

  it("advertises the approval subresource as kube does", async () => {
    const list = (await call("GET", "/apis/certificates.k8s.io/v1")).object;
    const resources = (list.resources as unknown as { name: string; verbs: string[] }[]).map((r) => [r.name, r.verbs]);
    expect(resources).toEqual([
      [
        "certificatesigningrequests",
        ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"],
      ],
      ["certificatesigningrequests/approval", ["get", "patch", "update"]],
      ["certificatesigningrequests/status", ["get", "patch", "update"]],
    ]);
  });
});
