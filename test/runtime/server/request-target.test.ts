import { describe, expect, it } from "vitest";
import { StatusError } from "../../../runtime/errors/status-error.js";
import { parseRequestTarget } from "../../../runtime/server/request-target.js";

// Paths and queries as kube-apiserver v1.36.2 (Go's net/http) reads them; checked against the reference server.
describe("parseRequestTarget", () => {
  it.each([
    ["GET", "/api/v1/namespaces", "/api/v1/namespaces"],
    ["GET", "/api%2Fv1", "/api/v1"],
    ["GET", "/api/v1/namespaces/default%2Fconfigmaps", "/api/v1/namespaces/default/configmaps"],
    ["GET", "/api/v1/namespaces/a%20b", "/api/v1/namespaces/a b"],
    ["GET", "/api/v1/namespaces/a+b", "/api/v1/namespaces/a+b"],
    ["GET", "//api", "//api"],
    ["GET", "*", "*"],
    ["GET", "http://", ""],
    ["GET", "http://example.com", ""],
    ["GET", "http://example.com/api?x=1", "/api"],
    ["GET", "HTTPS://example.com:8443/apis", "/apis"],
    ["CONNECT", "example.com:443", ""],
    ["CONNECT", "/api", "/api"],
  ])("%s %s has the path %j", (method, target, path) => {
    expect(parseRequestTarget(method, target).path).toBe(path);
  });

  it.each([
    ["/api/%zz", 'invalid URL escape in "/api/%zz"'],
    ["/api/v1/namespaces/%", 'invalid URL escape in "/api/v1/namespaces/%"'],
    ["/api/v1/namespaces/%E0%A4%A/pods", 'invalid URL escape in "/api/v1/namespaces/%E0%A4%A/pods"'],
    ["foo", 'invalid request URI "foo"'],
  ])("refuses %s with a 400", (target, message) => {
    let error: unknown;
    try {
      parseRequestTarget("GET", target);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(StatusError);
    expect((error as StatusError).status).toMatchObject({ code: 400, reason: "BadRequest", message });
  });

  it("keeps the query pairs Go can read and drops the others", () => {
    const { url } = parseRequestTarget("GET", "/api?limit=%zz&a=1&b=x;y&c=%41+b&d&=e&&f=%");
    expect([...url.searchParams]).toEqual([
      ["a", "1"],
      ["c", "A b"],
      ["d", ""],
      ["", "e"],
    ]);
  });

  it("decodes bytes that are not UTF-8 without failing", () => {
    expect(parseRequestTarget("GET", "/api/v1/namespaces/%E0%A4/pods").path).toBe("/api/v1/namespaces/\ufffd/pods");
  });
});
