// The review APIs over HTTP, as the admin (system:masters) posts them: answered with 201 and never stored,
// validation failures as kube's Status, and impersonation headers seen through SelfSubjectReview.
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../../runtime/index.js";

const token = "review-token";

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

describe("review APIs over HTTP", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ insecure: true, controllers: false, adminToken: token });
  });
  afterAll(() => server.close());

  /** A POST with headers that may repeat (node:http sends each array item as its own line). */
  function post(path: string, body: unknown, headers: Record<string, string | string[]> = {}): Promise<Answer> {
    const url = new URL(path, server.url);
    return new Promise((resolve, reject) => {
      const req = request(
        url,
        {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...headers },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () =>
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) }),
          );
        },
      );
      req.on("error", reject);
      req.end(JSON.stringify(body));
    });
  }

  const authn = "/apis/authentication.k8s.io/v1";
  const authz = "/apis/authorization.k8s.io/v1";

  it("answers SelfSubjectReview with the admin", async () => {
    const res = await post(`${authn}/selfsubjectreviews`, {
      apiVersion: "authentication.k8s.io/v1",
      kind: "SelfSubjectReview",
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      kind: "SelfSubjectReview",
      apiVersion: "authentication.k8s.io/v1",
      status: { userInfo: { username: "kapi-admin", groups: ["system:masters", "system:authenticated"] } },
    });
  });

  it("reviews tokens", async () => {
    const good = await post(`${authn}/tokenreviews`, { kind: "TokenReview", spec: { token } });
    expect(good.status).toBe(201);
    expect(good.body.status).toEqual({
      authenticated: true,
      user: { username: "kapi-admin", groups: ["system:masters", "system:authenticated"] },
      // The admin token is audience-agnostic: it is good for the API server's own audiences.
      audiences: ["https://kubernetes.default.svc.cluster.local"],
    });
    const bad = await post(`${authn}/tokenreviews`, { kind: "TokenReview", spec: { token: "nope" } });
    expect(bad.body.status).toEqual({ user: {}, error: "invalid bearer token" });
    const missing = await post(`${authn}/tokenreviews`, { kind: "TokenReview", spec: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe("token is required for TokenReview in authentication");
  });

  it("answers access reviews from the authorizer chain", async () => {
    const masters = await post(`${authz}/subjectaccessreviews`, {
      kind: "SubjectAccessReview",
      spec: { user: "x", groups: ["system:masters"], resourceAttributes: { verb: "delete", resource: "nodes" } },
    });
    expect(masters.status).toBe(201);
    expect(masters.body.status).toEqual({ allowed: true });
    const other = await post(`${authz}/subjectaccessreviews`, {
      kind: "SubjectAccessReview",
      spec: { user: "x", nonResourceAttributes: { path: "/metrics", verb: "get" } },
    });
    expect(other.body.status).toEqual({ allowed: false });
    const self = await post(`${authz}/selfsubjectaccessreviews`, {
      kind: "SelfSubjectAccessReview",
      spec: { resourceAttributes: { verb: "list", resource: "secrets" } },
    });
    expect(self.body.status).toEqual({ allowed: true });
    const local = await post(`${authz}/namespaces/default/localsubjectaccessreviews`, {
      kind: "LocalSubjectAccessReview",
      spec: { groups: ["system:masters"], resourceAttributes: { namespace: "default", verb: "get", resource: "pods" } },
    });
    expect(local.status).toBe(201);
    expect(local.body).toMatchObject({ metadata: { namespace: "default" }, status: { allowed: true } });
    const rules = await post(`${authz}/selfsubjectrulesreviews`, {
      kind: "SelfSubjectRulesReview",
      spec: { namespace: "default" },
    });
    expect(rules.status).toBe(201);
    // system:masters is bound to cluster-admin by the default policy; everyone authenticated may ask reviews.
    const status = rules.body.status as { incomplete: boolean; resourceRules: unknown[]; nonResourceRules: unknown[] };
    expect(status.incomplete).toBe(false);
    expect(status.resourceRules).toContainEqual({ verbs: ["*"], apiGroups: ["*"], resources: ["*"] });
    expect(status.resourceRules).toContainEqual({
      verbs: ["create"],
      apiGroups: ["authorization.k8s.io"],
      resources: ["selfsubjectaccessreviews", "selfsubjectrulesreviews"],
    });
    expect(status.nonResourceRules).toContainEqual({ verbs: ["*"], nonResourceURLs: ["*"] });
  });

  it("refuses a local review whose object names another namespace than its path", async () => {
    const res = await post(`${authz}/namespaces/default/localsubjectaccessreviews`, {
      kind: "LocalSubjectAccessReview",
      metadata: { namespace: "other" },
      spec: { user: "x", resourceAttributes: { namespace: "other", verb: "get" } },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      "the namespace of the provided object does not match the namespace sent on the request",
    );
  });

  it("refuses invalid access reviews with 422", async () => {
    const res = await post(`${authz}/namespaces/default/localsubjectaccessreviews`, {
      kind: "LocalSubjectAccessReview",
      spec: { user: "x", resourceAttributes: { namespace: "other", verb: "get" } },
    });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      kind: "Status",
      reason: "Invalid",
      message:
        '.authorization.k8s.io "" is invalid: spec.resourceAttributes.namespace: Invalid value: "other": must match metadata.namespace',
    });
  });

  it("answers 406 to a review asked for as a Table, as kube-apiserver (reviews have no Table convertor)", async () => {
    const answer = await post(
      "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
      {
        kind: "SelfSubjectAccessReview",
        apiVersion: "authorization.k8s.io/v1",
        spec: { nonResourceAttributes: { path: "/", verb: "get" } },
      },
      { accept: "application/json;as=Table;v=v1;g=meta.k8s.io" },
    );
    // The reference's answer (kube-apiserver v1.36.2) to the same request.
    expect(answer).toEqual({
      status: 406,
      body: {
        kind: "Status",
        apiVersion: "v1",
        metadata: {},
        status: "Failure",
        message:
          "only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf",
        reason: "NotAcceptable",
        code: 406,
      },
    });
  });

  it("never stores a review", async () => {
    const res = await fetch(`${server.url}${authz}/subjectaccessreviews`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(405);
  });

  it("answers as the impersonated user, with repeated groups and extras", async () => {
    const res = await post(
      `${authn}/selfsubjectreviews`,
      { kind: "SelfSubjectReview" },
      {
        "Impersonate-User": "jane",
        "Impersonate-Group": ["system:masters", "devs"],
        "Impersonate-Extra-Reason": ["a", "b"],
        "Impersonate-Uid": "42",
      },
    );
    expect(res.status).toBe(201);
    expect(res.body.status).toEqual({
      userInfo: {
        username: "jane",
        uid: "42",
        groups: ["system:masters", "devs", "system:authenticated"],
        extra: { reason: ["a", "b"] },
      },
    });
    const bad = await post(
      `${authn}/selfsubjectreviews`,
      { kind: "SelfSubjectReview" },
      { "Impersonate-Group": "devs" },
    );
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe("requested [{Group  devs    }] without impersonating a user");
  });
});
