import { describe, expect, it } from "vitest";
import { routes } from "../../../generated/routes.js";
import { createRouteMatcher, routeVerb } from "../../../runtime/routing/match-route.js";
import type { Route } from "../../../runtime/routing/route.js";

const match = createRouteMatcher(routes);

function summary(path: string) {
  const m = match(path);
  return m && { resource: m.route.resource, subresource: m.route.subresource, params: m.params };
}

describe("matchRoute over the generated route table", () => {
  it("tells the namespace resource from namespaced resources", () => {
    expect(summary("/api/v1/namespaces/default")).toEqual({
      resource: "namespaces",
      subresource: undefined,
      params: { name: "default" },
    });
    expect(summary("/api/v1/namespaces/default/pods")).toEqual({
      resource: "pods",
      subresource: undefined,
      params: { namespace: "default" },
    });
    expect(summary("/api/v1/namespaces/kube-system/status")).toEqual({
      resource: "namespaces",
      subresource: "status",
      params: { name: "kube-system" },
    });
    expect(summary("/api/v1/namespaces/default/pods/web-0/log")).toEqual({
      resource: "pods",
      subresource: "log",
      params: { namespace: "default", name: "web-0" },
    });
  });

  it("matches group paths, the all-namespaces list, legacy watch and proxy paths", () => {
    expect(summary("/apis/apps/v1/namespaces/ns1/deployments/web/scale")).toEqual({
      resource: "deployments",
      subresource: "scale",
      params: { namespace: "ns1", name: "web" },
    });
    expect(summary("/apis/apps/v1/deployments")?.params).toEqual({});
    expect(summary("/api/v1/watch/namespaces/ns1/pods")?.params).toEqual({ namespace: "ns1" });
    // Paths arrive decoded (server/request-target.ts), so segments are taken as they stand.
    expect(summary("/api/v1/namespaces/ns1/pods/web-0/proxy/a/b c")?.params).toEqual({
      namespace: "ns1",
      name: "web-0",
      path: "a/b c",
    });
  });

  it("matches nothing for unknown or malformed paths", () => {
    expect(match("/apis/apps/v1/namespaces/ns1/widgets")).toBeUndefined();
    expect(match("/api/v1/namespaces//pods")).toBeUndefined();
    expect(match("/api/v1/namespaces/ns1/pods/web-0/unknown")).toBeUndefined();
    expect(match("api/v1/pods")).toBeUndefined();
  });

  it("maps HTTP methods to the verbs the resource declares", () => {
    const collection = match("/apis/apps/v1/namespaces/ns1/deployments")?.route;
    const item = match("/apis/apps/v1/namespaces/ns1/deployments/web")?.route;
    if (!collection || !item) throw new Error("deployments are not routed");
    expect(routeVerb(collection, "GET", false)).toBe("list");
    expect(routeVerb(collection, "GET", true)).toBe("watch");
    expect(routeVerb(collection, "POST", false)).toBe("create");
    expect(routeVerb(collection, "DELETE", false)).toBe("deletecollection");
    expect(routeVerb(collection, "PUT", false)).toBeUndefined();
    expect(routeVerb(item, "GET", true)).toBe("watch");
    expect(routeVerb(item, "PATCH", false)).toBe("patch");
    const namespaces = match("/api/v1/namespaces")?.route;
    expect(namespaces && routeVerb(namespaces, "DELETE", false)).toBeUndefined();
  });

  it("rejects tables that declare a path twice", () => {
    const route: Route = { path: "/api/v1/x", group: "", version: "v1", resource: "x", scope: "Cluster", methods: {} };
    expect(() => createRouteMatcher([route, route])).toThrow("route /api/v1/x is declared twice");
  });
});
