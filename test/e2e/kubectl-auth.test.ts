// kubectl end to end against kapi's access control: who kubectl is (the admin's client certificate, a token
// file user, a client certificate from --client-ca-file, service account and bootstrap tokens, nobody), what
// it may do (auth can-i, create role and rolebinding, escalation prevention, roleRef immutability), and
// impersonation with --as and --as-group.
import { createHash, createHmac, X509Certificate } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { createServingCertificates, issueClientCertificate } from "../../runtime/http/certificates.js";
import { eventually } from "../runtime/controllers/controller-harness.js";
import { type KubectlUser, kubectlFor, kubectlTable, kubectlUser, whoamiTable } from "./kubectl-auth-users.js";
import { haveKubectl, type KubectlSession, startKubectlSession } from "./kubectl-session.js";

const unauthorized = "error: You must be logged in to the server (Unauthorized)\n";
const defaultIssuer = "https://kubernetes.default.svc.cluster.local";
const credentialId = "Extra: authentication.kubernetes.io/credential-id";
const janeGroups = 'groups=["devs" "qa" "system:authenticated"]';
const serviceAccountGroups = "[system:serviceaccounts system:serviceaccounts:default system:authenticated]";

const base64 = (text: string) => Buffer.from(text).toString("base64");
/** What kube puts in credential-id for a client certificate: the SHA-256 of its DER, in hex. */
const x509CredentialId = (pem: string) =>
  `X509SHA256=${createHash("sha256").update(new X509Certificate(pem).raw).digest("hex")}`;
const claimsOf = (jwt: string) =>
  JSON.parse(Buffer.from(jwt.split(".")[1] ?? "", "base64url").toString()) as {
    sub: string;
    aud: string[];
    iat: number;
    exp: number;
    jti: string;
  };
/** An RFC 3339 time `offsetMs` from now, as a bootstrap token Secret's expiration. */
const expiresIn = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString().replace(/\.\d+Z$/, "Z");

function bootstrapTokenSecret(id: string, expiration: string): string {
  return `apiVersion: v1
kind: Secret
metadata:
  name: bootstrap-token-${id}
  namespace: kube-system
type: bootstrap.kubernetes.io/token
stringData:
  token-id: ${id}
  token-secret: 0123456789abcdef
  usage-bootstrap-authentication: "true"
  usage-bootstrap-signing: "true"
  auth-extra-groups: system:bootstrappers:kapi
  expiration: ${expiration}
`;
}

describe.skipIf(!haveKubectl)("kubectl authentication and authorization", () => {
  let session: KubectlSession;
  let fixtures: string;
  let caCert: string;
  let caKey: string;
  let admin: KubectlUser;
  let jane: KubectlUser;
  let bob: KubectlUser;
  const kubectl = (...args: string[]) => session.kubectl(...args);

  const tokenReview = async (token: string, audiences?: string[]) => {
    const review = session.file(
      "token-review.json",
      JSON.stringify({
        apiVersion: "authentication.k8s.io/v1",
        kind: "TokenReview",
        spec: { token, ...(audiences === undefined ? {} : { audiences }) },
      }),
    );
    return (JSON.parse(await kubectl("create", "-f", review, "-o", "json")) as { status: Record<string, unknown> })
      .status;
  };

  beforeAll(async () => {
    fixtures = mkdtempSync(join(tmpdir(), "kapi-auth-"));
    const clientCa = createServingCertificates({ dns: [], ips: [] });
    caCert = clientCa.caCert;
    caKey = clientCa.caKey ?? "";
    const clientCaFile = join(fixtures, "client-ca.crt");
    writeFileSync(clientCaFile, caCert);
    const tokenAuthFile = join(fixtures, "tokens.csv");
    writeFileSync(tokenAuthFile, 'tok-jane,jane,uid-jane,"devs,qa"\ntok-bob,bob,uid-bob\n');
    session = await startKubectlSession({
      authentication: { clientCaFile, tokenAuthFile, enableBootstrapTokenAuth: true, tokenCacheTtlMs: 0 },
      // Canonical names: startServer does not resolve the aliases (the skipped test at the end).
      controllers: ["*", "bootstrap-signer-controller", "token-cleaner-controller"],
    });
    admin = kubectlFor(session, session.kubeconfig);
    jane = kubectlUser(session, "jane", { token: "tok-jane" });
    bob = kubectlUser(session, "bob", { token: "tok-bob" });
  });
  afterAll(async () => {
    await session?.close();
    if (fixtures !== undefined) rmSync(fixtures, { recursive: true, force: true });
  });

  it("shows the admin of the client-certificate kubeconfig", async () => {
    const config = parse(session.server.kubeconfig) as { users: { user: Record<string, string> }[] };
    const adminCert = Buffer.from(config.users[0]?.user["client-certificate-data"] ?? "", "base64").toString();
    expect(await kubectl("auth", "whoami")).toBe(
      whoamiTable([
        ["Username", "kapi-admin"],
        ["Groups", "[system:masters system:authenticated]"],
        [credentialId, `[${x509CredentialId(adminCert)}]`],
      ]),
    );
    const review = JSON.parse(await kubectl("auth", "whoami", "-o", "json")) as Record<string, unknown>;
    expect(review).toEqual({
      kind: "SelfSubjectReview",
      apiVersion: "authentication.k8s.io/v1",
      metadata: { creationTimestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/) },
      status: {
        userInfo: {
          username: "kapi-admin",
          groups: ["system:masters", "system:authenticated"],
          extra: { "authentication.kubernetes.io/credential-id": [x509CredentialId(adminCert)] },
        },
      },
    });
  });

  it("shows a token file user with uid and groups", async () => {
    expect(await jane.kubectl("auth", "whoami")).toBe(
      whoamiTable([
        ["Username", "jane"],
        ["UID", "uid-jane"],
        ["Groups", "[devs qa system:authenticated]"],
      ]),
    );
  });

  it("grants a user what a role bound to her allows, and nothing more", async () => {
    expect(await jane.run("auth", "can-i", "list", "pods")).toMatchObject({ stdout: "no\n", code: 1 });
    expect(await kubectl("create", "role", "pod-reader", "--verb=get,list", "--resource=pods", "-n", "default")).toBe(
      "role.rbac.authorization.k8s.io/pod-reader created\n",
    );
    expect(
      await kubectl("create", "rolebinding", "jane-reads", "--role=pod-reader", "--user=jane", "-n", "default"),
    ).toBe("rolebinding.rbac.authorization.k8s.io/jane-reads created\n");
    await eventually(async () => expect(await jane.kubectl("auth", "can-i", "list", "pods")).toBe("yes\n"));
    expect(await jane.run("get", "pods")).toEqual({
      stdout: "",
      stderr: "No resources found in default namespace.\n",
      code: 0,
    });
    expect(await jane.kubectlError("get", "secrets")).toBe(
      'Error from server (Forbidden): secrets is forbidden: User "jane" cannot list resource "secrets" in API group "" in the namespace "default"\n',
    );
    // system:discovery and system:public-info-viewer both grant /healthz, /livez, /readyz and /version; kube
    // lists each rule as it comes, duplicates included.
    const urls = ["/api/*", "/api", "/apis/*", "/apis", "/healthz", "/healthz", "/livez", "/livez", "/openapi/*"];
    urls.push("/openapi", "/readyz", "/readyz", "/version/", "/version/", "/version", "/version");
    const rows = [
      ["Resources", "Non-Resource URLs", "Resource Names", "Verbs"],
      ["selfsubjectreviews.authentication.k8s.io", "[]", "[]", "[create]"],
      ["selfsubjectaccessreviews.authorization.k8s.io", "[]", "[]", "[create]"],
      ["selfsubjectrulesreviews.authorization.k8s.io", "[]", "[]", "[create]"],
      ["pods", "[]", "[]", "[get list]"],
      ...urls.map((url) => ["", `[${url}]`, "[]", "[get]"]),
    ];
    expect(await jane.kubectl("auth", "can-i", "--list", "-n", "default")).toBe(kubectlTable(rows));
  });

  it("grants through a group binding", async () => {
    await kubectl("create", "role", "configmap-reader", "--verb=get,list", "--resource=configmaps", "-n", "default");
    await kubectl(
      "create",
      "rolebinding",
      "devs-read-configmaps",
      "--role=configmap-reader",
      "--group=devs",
      "-n",
      "default",
    );
    await eventually(async () => expect(await jane.kubectl("auth", "can-i", "list", "configmaps")).toBe("yes\n"));
    expect(await jane.run("get", "configmaps", "-o", "name")).toMatchObject({
      stdout: "configmap/kube-root-ca.crt\n",
      code: 0,
    });
    expect(await bob.run("auth", "can-i", "list", "configmaps")).toMatchObject({ stdout: "no\n", code: 1 });
  });

  it("authenticates client certificates issued by the --client-ca-file CA, not by others", async () => {
    const carolCert = issueClientCertificate(
      { cert: caCert, key: caKey },
      { commonName: "carol", organizations: ["ops"] },
    );
    const carol = kubectlUser(session, "carol", {
      "client-certificate-data": base64(carolCert.cert),
      "client-key-data": base64(carolCert.key),
    });
    expect(await carol.kubectl("auth", "whoami")).toBe(
      whoamiTable([
        ["Username", "carol"],
        ["Groups", "[ops system:authenticated]"],
        [credentialId, `[${x509CredentialId(carolCert.cert)}]`],
      ]),
    );
    const stranger = createServingCertificates({ dns: [], ips: [] });
    const strangerCert = issueClientCertificate(
      { cert: stranger.caCert, key: stranger.caKey ?? "" },
      { commonName: "mallory", organizations: ["system:masters"] },
    );
    const mallory = kubectlUser(session, "mallory", {
      "client-certificate-data": base64(strangerCert.cert),
      "client-key-data": base64(strangerCert.key),
    });
    expect(await mallory.kubectlError("auth", "whoami")).toBe(unauthorized);
  });

  it("lets the admin impersonate users, groups and uids", async () => {
    expect(await kubectl("auth", "can-i", "list", "pods", "--as=jane")).toBe("yes\n");
    // An impersonated user has only the groups asked for, not those of the token file.
    expect(await admin.run("auth", "can-i", "list", "configmaps", "--as=jane")).toMatchObject({
      stdout: "no\n",
      code: 1,
    });
    expect(await kubectl("auth", "can-i", "list", "configmaps", "--as=jane", "--as-group=devs")).toBe("yes\n");
    expect(await kubectl("auth", "whoami", "--as=jane", "--as-group=devs", "--as-uid=uid-impersonated")).toBe(
      whoamiTable([
        ["Username", "jane"],
        ["UID", "uid-impersonated"],
        ["Groups", "[devs system:authenticated]"],
      ]),
    );
  });

  it("refuses impersonation without the impersonate verb, and allows what a ClusterRole grants", async () => {
    expect(await bob.run("auth", "can-i", "list", "pods", "--as=jane")).toEqual({
      stdout: "",
      stderr:
        'Error from server (Forbidden): users "jane" is forbidden: User "bob" cannot impersonate resource "users" in API group "" at the cluster scope\n',
      code: 1,
    });
    await kubectl("create", "clusterrole", "user-impersonator", "--verb=impersonate", "--resource=users");
    await kubectl(
      "create",
      "clusterrolebinding",
      "bob-impersonates-users",
      "--clusterrole=user-impersonator",
      "--user=bob",
    );
    await eventually(async () =>
      expect(await bob.kubectl("auth", "whoami", "--as=jane")).toBe(
        whoamiTable([
          ["Username", "jane"],
          ["Groups", "[system:authenticated]"],
        ]),
      ),
    );
    expect(await bob.kubectl("auth", "can-i", "list", "pods", "--as=jane")).toBe("yes\n");
    expect(await bob.kubectlError("get", "pods", "--as=jane", "--as-group=devs")).toBe(
      'Error from server (Forbidden): groups "devs" is forbidden: User "bob" cannot impersonate resource "groups" in API group "" at the cluster scope\n',
    );
  });

  it("refuses roles and bindings that grant more than their author holds", async () => {
    await kubectl(
      "create",
      "role",
      "rbac-editor",
      "--verb=create",
      "--resource=roles.rbac.authorization.k8s.io,rolebindings.rbac.authorization.k8s.io",
      "-n",
      "default",
    );
    await kubectl("create", "rolebinding", "jane-edits-rbac", "--role=rbac-editor", "--user=jane", "-n", "default");
    await eventually(async () => expect(await jane.kubectl("auth", "can-i", "create", "roles")).toBe("yes\n"));
    expect(await jane.kubectlError("create", "role", "too-much", "--verb=delete", "--resource=secrets")).toBe(
      `Error from server (Forbidden): roles.rbac.authorization.k8s.io "too-much" is forbidden: user "jane" (${janeGroups}) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["secrets"], Verbs:["delete"]}\n`,
    );
    expect(await jane.kubectl("create", "role", "pod-lister", "--verb=list", "--resource=pods")).toBe(
      "role.rbac.authorization.k8s.io/pod-lister created\n",
    );

    await kubectl("create", "clusterrole", "secret-reader", "--verb=get,list", "--resource=secrets");
    const bindSecretReader = ["create", "rolebinding", "jane-secrets", "--clusterrole=secret-reader", "--user=jane"];
    expect(await jane.kubectlError(...bindSecretReader)).toBe(
      `error: failed to create rolebinding: rolebindings.rbac.authorization.k8s.io "jane-secrets" is forbidden: user "jane" (${janeGroups}) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["secrets"], Verbs:["get" "list"]}\n`,
    );
    await kubectl(
      "create",
      "clusterrole",
      "secret-reader-binder",
      "--verb=bind",
      "--resource=clusterroles",
      "--resource-name=secret-reader",
    );
    await kubectl("create", "rolebinding", "jane-binds", "--clusterrole=secret-reader-binder", "--user=jane");
    await eventually(async () =>
      expect(await jane.kubectl("auth", "can-i", "bind", "clusterroles/secret-reader")).toBe("yes\n"),
    );
    expect(await jane.kubectl(...bindSecretReader)).toBe(
      "rolebinding.rbac.authorization.k8s.io/jane-secrets created\n",
    );
    await eventually(async () => expect(await jane.kubectl("auth", "can-i", "list", "secrets")).toBe("yes\n"));
  });

  it("refuses a change of a binding's roleRef with 422", async () => {
    const stderr = await session.kubectlError(
      "patch",
      "rolebinding",
      "jane-reads",
      "--type=merge",
      "-p",
      '{"roleRef":{"name":"pod-lister"}}',
      "-v=6",
    );
    expect(stderr).toMatch(/PATCH https:\/\/\S+\/rolebindings\/jane-reads\?\S* 422 Unprocessable Entity/);
    expect(stderr.split("\n").slice(-2)).toEqual([
      'The RoleBinding "jane-reads" is invalid: roleRef: Invalid value: {"apiGroup":"rbac.authorization.k8s.io","kind":"Role","name":"pod-lister"}: cannot change roleRef',
      "",
    ]);
  });

  it("issues service account tokens that authenticate and pass a TokenReview", async () => {
    const token = (await kubectl("create", "token", "default")).trim();
    const claims = claimsOf(token);
    expect(claims).toMatchObject({ sub: "system:serviceaccount:default:default", aud: [defaultIssuer] });
    expect(claims.exp - claims.iat).toBe(3600);
    const uid = await kubectl("get", "serviceaccount", "default", "-o", "jsonpath={.metadata.uid}");
    const user = {
      username: "system:serviceaccount:default:default",
      uid,
      groups: ["system:serviceaccounts", "system:serviceaccounts:default", "system:authenticated"],
      extra: { "authentication.kubernetes.io/credential-id": [`JTI=${claims.jti}`] },
    };
    const robot = kubectlUser(session, "default-sa", { token });
    expect(await robot.kubectl("auth", "whoami")).toBe(
      whoamiTable([
        ["Username", user.username],
        ["UID", uid],
        ["Groups", serviceAccountGroups],
        [credentialId, `[JTI=${claims.jti}]`],
      ]),
    );
    expect(await tokenReview(token)).toEqual({ authenticated: true, audiences: [defaultIssuer], user });

    const short = claimsOf((await kubectl("create", "token", "default", "--duration=10m")).trim());
    expect(short.exp - short.iat).toBe(600);

    const forX = (await kubectl("create", "token", "default", "--audience=x")).trim();
    expect(claimsOf(forX).aud).toEqual(["x"]);
    // The server accepts only tokens for its own audiences; a TokenReview asks for others.
    expect(await kubectlUser(session, "audience-x", { token: forX }).kubectlError("auth", "whoami")).toBe(unauthorized);
    expect(await tokenReview(forX, ["x"])).toEqual({
      authenticated: true,
      audiences: ["x"],
      user: { ...user, extra: { "authentication.kubernetes.io/credential-id": [`JTI=${claimsOf(forX).jti}`] } },
    });
  });

  it("revokes a service account's tokens when it is deleted", async () => {
    await kubectl("create", "serviceaccount", "robot");
    const token = (await kubectl("create", "token", "robot")).trim();
    const robot = kubectlUser(session, "robot", { token });
    expect((await robot.kubectl("auth", "whoami")).split("\n")[1]).toMatch(
      /^Username\s+system:serviceaccount:default:robot$/,
    );
    expect(await kubectl("delete", "serviceaccount", "robot")).toBe('serviceaccount "robot" deleted\n');
    expect(await robot.kubectlError("auth", "whoami")).toBe(unauthorized);
    expect(await robot.kubectlError("get", "--raw", "/version")).toBe(unauthorized);
    const review = await tokenReview(token);
    expect(review.authenticated).toBeUndefined();
    expect(review.user).toEqual({});
  });

  it("logs in with a bootstrap token, whose signature the signer publishes in cluster-info", async () => {
    expect(
      await kubectl(
        "create",
        "-f",
        session.file("bootstrap-token.yaml", bootstrapTokenSecret("abcdef", expiresIn(3_600_000))),
      ),
    ).toBe("secret/bootstrap-token-abcdef created\n");
    const joining = kubectlUser(session, "joining", {});
    expect(await joining.kubectl("--token", "abcdef.0123456789abcdef", "auth", "whoami")).toBe(
      whoamiTable([
        ["Username", "system:bootstrap:abcdef"],
        ["Groups", "[system:bootstrappers system:bootstrappers:kapi system:authenticated]"],
      ]),
    );
    const clusterInfo = () =>
      kubectl("get", "configmap", "cluster-info", "-n", "kube-public", "-o", "json").then(
        (json) => (JSON.parse(json) as { data: Record<string, string> }).data,
      );
    const data = await eventually(async () => {
      const current = await clusterInfo();
      expect(current).toHaveProperty("jws-kubeconfig-abcdef");
      return current;
    });
    // A detached JWS (header..signature), HS256 keyed by the token's secret over the kubeconfig.
    const [header, payload, signature] = (data["jws-kubeconfig-abcdef"] ?? "").split(".");
    expect(JSON.parse(Buffer.from(header ?? "", "base64url").toString())).toEqual({ alg: "HS256", kid: "abcdef" });
    expect(payload).toBe("");
    const signed = `${header}.${Buffer.from(data.kubeconfig ?? "").toString("base64url")}`;
    expect(signature).toBe(createHmac("sha256", "0123456789abcdef").update(signed).digest("base64url"));

    await kubectl("delete", "secret", "bootstrap-token-abcdef", "-n", "kube-system");
    await eventually(async () => expect(await clusterInfo()).not.toHaveProperty("jws-kubeconfig-abcdef"));
    expect(await joining.kubectlError("--token", "abcdef.0123456789abcdef", "auth", "whoami")).toBe(unauthorized);
  });

  it("refuses expired bootstrap tokens, and the token cleaner deletes their Secrets", async () => {
    await kubectl(
      "create",
      "-f",
      session.file("expired-token.yaml", bootstrapTokenSecret("expird", expiresIn(-3_600_000))),
    );
    const joining = kubectlUser(session, "late", {});
    expect(await joining.kubectlError("--token", "expird.0123456789abcdef", "auth", "whoami")).toBe(unauthorized);
    await eventually(async () =>
      expect(await session.kubectlError("get", "secret", "bootstrap-token-expird", "-n", "kube-system")).toBe(
        'Error from server (NotFound): secrets "bootstrap-token-expird" not found\n',
      ),
    );
  });
});

describe.skipIf(!haveKubectl)("kubectl without credentials", () => {
  let open: KubectlSession;
  let closed: KubectlSession;

  beforeAll(async () => {
    // Plain HTTP: over TLS kubectl prompts for a username when its kubeconfig has no credentials (and over
    // plain HTTP it sends none, whatever the kubeconfig holds).
    [open, closed] = await Promise.all([
      startKubectlSession({ insecure: true, controllers: false }),
      startKubectlSession({ insecure: true, controllers: false, authentication: { anonymousAuth: false } }),
    ]);
  });
  afterAll(async () => {
    await open?.close();
    await closed?.close();
  });

  it("is system:anonymous: public info only", async () => {
    const anonymous = kubectlUser(open, "anonymous", {});
    const version = JSON.parse(await anonymous.kubectl("get", "--raw", "/version")) as Record<string, string>;
    expect(version.gitVersion).toMatch(/^v1\.36\./);
    expect(await anonymous.kubectlError("get", "--raw", "/api/v1/namespaces/default/pods")).toBe(
      'Error from server (Forbidden): pods is forbidden: User "system:anonymous" cannot list resource "pods" in API group "" in the namespace "default"\n',
    );
    // Discovery is not public either: kubectl reports the refusal of /api as kube's kubectl does.
    expect(await anonymous.kubectlError("get", "--raw", "/api")).toBe(
      'Error from server (Forbidden): forbidden: User "system:anonymous" cannot get path "/api"\n',
    );
    expect((await anonymous.kubectlError("get", "pods")).split("\n").slice(-2)).toEqual([
      "Error from server (Forbidden): unknown",
      "",
    ]);
  });

  it("is refused with 401 when anonymous authentication is off", async () => {
    const nobody = kubectlUser(closed, "nobody", {});
    expect(await nobody.kubectlError("get", "--raw", "/version")).toBe(unauthorized);
    expect(await nobody.kubectlError("get", "--raw", "/api/v1/namespaces/default/pods")).toBe(unauthorized);
    expect((await nobody.kubectlError("get", "pods")).split("\n").slice(-2)).toEqual([
      "error: You must be logged in to the server (the server has asked for the client to provide credentials)",
      "",
    ]);
  });
});

describe.skipIf(!haveKubectl)("kubectl with the controllers named by kube-controller-manager's aliases", () => {
  it("publishes cluster-info when the bootstrap signer is named `bootstrapsigner`", async () => {
    const aliased = await startKubectlSession({ controllers: ["*", "bootstrapsigner", "tokencleaner"] });
    try {
      await eventually(async () =>
        expect(await aliased.kubectl("get", "configmap", "cluster-info", "-n", "kube-public", "-o", "name")).toBe(
          "configmap/cluster-info\n",
        ),
      );
    } finally {
      await aliased.close();
    }
  });
});
