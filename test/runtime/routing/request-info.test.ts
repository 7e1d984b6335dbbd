import { describe, expect, it } from "vitest";
import { parseRequestInfo, queryBool } from "../../../runtime/routing/request-info.js";

function info(method: string, url: string) {
  const u = new URL(url, "http://x");
  const { path: _path, parts: _parts, ...rest } = parseRequestInfo(method, u.pathname, u.searchParams);
  return rest;
}

const none = { apiPrefix: "", group: "", version: "", namespace: "", resource: "", subresource: "", name: "" };

describe("parseRequestInfo", () => {
  it("treats discovery, version and health paths as non-resource requests with the method as verb", () => {
    for (const path of ["/version", "/api", "/api/v1", "/apis", "/apis/apps", "/apis/apps/v1", "/livez"]) {
      expect(info("GET", path)).toEqual({ isResourceRequest: false, verb: "get", ...none });
    }
    expect(info("POST", "/version").verb).toBe("post");
  });

  it("reads a namespaced object with its subresource", () => {
    expect(info("PUT", "/apis/apps/v1/namespaces/ns/deployments/web/scale")).toEqual({
      isResourceRequest: true,
      verb: "update",
      apiPrefix: "apis",
      group: "apps",
      version: "v1",
      namespace: "ns",
      resource: "deployments",
      subresource: "scale",
      name: "web",
    });
  });

  it("tells list from get and watch from list", () => {
    expect(info("GET", "/api/v1/pods").verb).toBe("list");
    expect(info("GET", "/api/v1/namespaces/ns/pods").verb).toBe("list");
    expect(info("GET", "/api/v1/namespaces/ns/pods/p").verb).toBe("get");
    expect(info("GET", "/api/v1/pods?watch=true").verb).toBe("watch");
    expect(info("GET", "/api/v1/pods?watch=1").verb).toBe("watch");
    expect(info("GET", "/api/v1/pods?watch=false").verb).toBe("list");
    expect(info("GET", "/api/v1/pods?watch=0").verb).toBe("list");
  });

  it("reads the legacy /watch/ prefix as the watch verb", () => {
    expect(info("GET", "/api/v1/watch/namespaces/ns/pods/p")).toMatchObject({
      verb: "watch",
      namespace: "ns",
      resource: "pods",
      name: "p",
    });
    expect(info("GET", "/api/v1/watch/pods")).toMatchObject({ verb: "watch", resource: "pods", name: "" });
  });

  it("takes the name from a metadata.name field selector on a list", () => {
    expect(info("GET", "/api/v1/namespaces/ns/pods?fieldSelector=metadata.name%3Dp")).toMatchObject({
      verb: "list",
      name: "p",
    });
    expect(info("GET", "/api/v1/pods?watch=1&fieldSelector=metadata.name%3D%3Dp")).toMatchObject({
      verb: "watch",
      name: "p",
    });
  });

  it("reads a delete without a name as deletecollection", () => {
    expect(info("DELETE", "/api/v1/namespaces/ns/pods").verb).toBe("deletecollection");
    expect(info("DELETE", "/api/v1/namespaces/ns/pods/p").verb).toBe("delete");
  });

  it("reads namespaces themselves, with their status and finalize subresources", () => {
    expect(info("GET", "/api/v1/namespaces/ns")).toMatchObject({ resource: "namespaces", name: "ns", namespace: "ns" });
    expect(info("PUT", "/api/v1/namespaces/ns/finalize")).toMatchObject({
      verb: "update",
      resource: "namespaces",
      name: "ns",
      subresource: "finalize",
    });
    expect(info("POST", "/api/v1/namespaces")).toMatchObject({ verb: "create", resource: "namespaces", name: "" });
  });

  it("never reads a subresource on proxy", () => {
    expect(info("GET", "/api/v1/proxy/namespaces/ns/pods/p/some/path")).toMatchObject({
      verb: "proxy",
      resource: "pods",
      name: "p",
      subresource: "",
    });
  });

  it("reads cluster-scoped resources of a named group", () => {
    expect(info("POST", "/apis/rbac.authorization.k8s.io/v1/clusterroles")).toMatchObject({
      isResourceRequest: true,
      verb: "create",
      group: "rbac.authorization.k8s.io",
      resource: "clusterroles",
      namespace: "",
    });
  });
});

describe("queryBool", () => {
  it("converts as apimachinery does", () => {
    const q = new URLSearchParams("a=true&b=1&c=false&d=0&e=FALSE&f=&g=yes");
    expect(["a", "b", "c", "d", "e", "f", "g", "h"].map((k) => queryBool(q, k))).toEqual([
      true,
      true,
      false,
      false,
      false,
      true,
      true,
      false,
    ]);
  });
});
