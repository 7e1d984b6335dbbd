import { describe, expect, it } from "vitest";
import type { Attributes, Decision } from "../../../../../runtime/access/authorizer.js";
import { CelError, type CelValue } from "../../../../../runtime/cel/common/values.js";
import {
  AuthorizerValue,
  authorizerLibrary,
  authorizerSelectorsLibrary,
  type CelAuthorizer,
  newAuthorizerValue,
  newRequestResourceCheck,
} from "../../../../../runtime/cel/library/kubernetes/authorizer-library.js";
import { call, overload } from "./call-overload.js";

/** Records every check and allows `get` on pods and GET on /healthz, errors on `explode`. */
class RecordingAuthorizer implements CelAuthorizer {
  readonly seen: Attributes[] = [];
  authorize(attributes: Attributes): Decision {
    this.seen.push(attributes);
    if (attributes.verb === "explode") throw new Error("webhook unreachable");
    if (attributes.resource === "pods" && attributes.verb === "get")
      return { decision: "allow", reason: "pods are fine" };
    if (attributes.path === "/healthz" && attributes.verb === "GET") return { decision: "allow", reason: "" };
    return { decision: "noOpinion", reason: "no rule" };
  }
}

const alice = { name: "alice", groups: ["system:authenticated"] };

function setup() {
  const authz = new RecordingAuthorizer();
  return { authz, authorizer: newAuthorizerValue(authz, alice) };
}

const a = (id: string, ...args: CelValue[]) => call(authorizerLibrary, id, ...args);

function errorOf(v: CelValue): string {
  if (!(v instanceof CelError)) throw new Error(`expected an error, got ${String(v)}`);
  return v.message;
}

describe("authorizer library (kubernetes.authz)", () => {
  it("checks a resource with every attribute the builders set", () => {
    const { authz, authorizer } = setup();
    let check = a("groupcheck_resource", a("authorizer_group", authorizer, "apps"), "deployments");
    check = a("resourcecheck_subresource", check, "scale");
    check = a("resourcecheck_namespace", check, "test");
    check = a("resourcecheck_name", check, "backend");
    const decision = a("resourcecheck_check", check, "update");
    expect(authz.seen).toEqual([
      {
        user: alice,
        verb: "update",
        resourceRequest: true,
        apiGroup: "apps",
        apiVersion: "*",
        resource: "deployments",
        subresource: "scale",
        namespace: "test",
        name: "backend",
        path: "",
      },
    ]);
    expect(a("decision_allowed", decision)).toBe(false);
    expect(a("decision_reason", decision)).toBe("no rule");
    expect(a("decision_errored", decision)).toBe(false);
    expect(a("decision_error", decision)).toBe("");
  });

  it("leaves the receiver of a builder unchanged", () => {
    const { authz, authorizer } = setup();
    const pods = a("groupcheck_resource", a("authorizer_group", authorizer, ""), "pods");
    a("resourcecheck_namespace", pods, "default");
    expect(a("decision_allowed", a("resourcecheck_check", pods, "get"))).toBe(true);
    expect(authz.seen[0]?.namespace).toBe("");
  });

  it("checks a non-resource path with an HTTP verb", () => {
    const { authz, authorizer } = setup();
    const decision = a("pathcheck_check", a("authorizer_path", authorizer, "/healthz"), "GET");
    expect(a("decision_allowed", decision)).toBe(true);
    expect(authz.seen[0]).toMatchObject({ resourceRequest: false, path: "/healthz", verb: "GET", apiVersion: "" });
  });

  it("refuses an empty path or resource", () => {
    const { authorizer } = setup();
    expect(errorOf(a("authorizer_path", authorizer, ""))).toBe("path must not be empty");
    expect(errorOf(a("authorizer_path", authorizer, "  "))).toBe("path must not be empty");
    expect(errorOf(a("groupcheck_resource", a("authorizer_group", authorizer, "apps"), "\t"))).toBe(
      "resource must not be empty",
    );
  });

  it("switches to a service account's identity", () => {
    const { authz, authorizer } = setup();
    const sa = a("authorizer_serviceaccount", authorizer, "default", "builder");
    expect(sa).toBeInstanceOf(AuthorizerValue);
    a("resourcecheck_check", a("groupcheck_resource", a("authorizer_group", sa, ""), "pods"), "list");
    expect(authz.seen[0]?.user).toEqual({
      name: "system:serviceaccount:default:builder",
      uid: "",
      groups: ["system:serviceaccounts", "system:serviceaccounts:default"],
    });
    expect(errorOf(a("authorizer_serviceaccount", authorizer, "not@a#valid!namespace", "validname"))).toBe(
      "Invalid service account namespace",
    );
    expect(errorOf(a("authorizer_serviceaccount", authorizer, "valid.example.com", "invalid@*name"))).toBe(
      "Invalid service account name",
    );
  });

  it("reports an authorizer failure as an errored decision", () => {
    const { authorizer } = setup();
    const decision = a("pathcheck_check", a("authorizer_path", authorizer, "/x"), "explode");
    expect(a("decision_errored", decision)).toBe(true);
    expect(a("decision_error", decision)).toBe("webhook unreachable");
    expect(a("decision_allowed", decision)).toBe(false);
  });

  it("presets the request's resource for authorizer.requestResource", () => {
    const { authz, authorizer } = setup();
    const request = newRequestResourceCheck(authorizer, {
      group: "",
      resource: "pods",
      subresource: "status",
      namespace: "ns",
      name: "p",
    });
    a("resourcecheck_check", request, "get");
    expect(authz.seen[0]).toMatchObject({ resource: "pods", subresource: "status", namespace: "ns", name: "p" });
  });

  it("costs 350000 per check and 1 per builder (cost.go)", () => {
    for (const id of ["pathcheck_check", "resourcecheck_check"]) {
      const cost = overload(authorizerLibrary, id).cost;
      expect(cost?.estimate?.([undefined, undefined])).toEqual({ min: 350000, max: 350000 });
      expect(cost?.actual?.([], null)).toBe(350000);
    }
    expect(overload(authorizerLibrary, "authorizer_group").cost).toBeUndefined();
  });
});

describe("authorizer selectors library (kubernetes.authzSelectors)", () => {
  const s = (id: string, ...args: CelValue[]) => call(authorizerSelectorsLibrary, id, ...args);

  it("passes parsed field and label selectors to the authorizer", () => {
    const { authz, authorizer } = setup();
    let check = a("groupcheck_resource", a("authorizer_group", authorizer, ""), "pods");
    check = s("authorizer_fieldselector", check, "spec.nodeName=mynode");
    check = s("authorizer_labelselector", check, "app in (a,b)");
    a("resourcecheck_check", check, "list");
    expect(authz.seen[0]?.fieldSelector).toEqual({
      requirements: [{ field: "spec.nodeName", operator: "=", value: "mynode" }],
    });
    expect(authz.seen[0]?.labelSelector?.requirements).toEqual([{ key: "app", operator: "in", values: ["a", "b"] }]);
  });

  it("passes a selector that does not parse as its error, and omits empty ones", () => {
    const { authz, authorizer } = setup();
    let check = a("groupcheck_resource", a("authorizer_group", authorizer, ""), "pods");
    check = s("authorizer_fieldselector", check, "nonsense");
    check = s("authorizer_labelselector", check, "");
    a("resourcecheck_check", check, "list");
    expect(authz.seen[0]?.fieldSelector?.error).toMatch(/invalid selector/);
    expect(authz.seen[0]?.labelSelector).toBeUndefined();
  });
});
