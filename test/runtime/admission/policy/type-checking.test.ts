import { afterAll, describe, expect, it } from "vitest";
import type { MatchResources } from "../../../../runtime/admission/policy/match-resources.js";
import {
  groupVersionKindString,
  kindsToCheck,
  PolicyTypeChecker,
} from "../../../../runtime/admission/policy/type-checking.js";
import { ResourceApi } from "../../../../runtime/resources/resource-api.js";
import { MemoryStore } from "../../../../runtime/storage/memory-store.js";
import { builtinKinds } from "../../builtin-kinds.js";

const store = new MemoryStore();
const api = new ResourceApi({ kinds: builtinKinds(), store });
const checker = PolicyTypeChecker.for(api);
afterAll(async () => {
  api.close();
  await store.close();
});

function matching(groups: string[], versions: string[], resources: string[]): MatchResources {
  return { resourceRules: [{ operations: ["*"], apiGroups: groups, apiVersions: versions, resources }] };
}

const deployments = matching(["apps"], ["v1"], ["deployments"]);

describe("kindsToCheck", () => {
  const names = (match: MatchResources | undefined) => kindsToCheck(match, api.kinds).map(groupVersionKindString);

  it("resolves explicit rules through the served kinds, sorted by group, version and kind", () => {
    expect(names(matching(["apps", ""], ["v1"], ["replicasets", "deployments", "pods", "pods/status"]))).toEqual([
      "/v1, Kind=Pod",
      "apps/v1, Kind=Deployment",
      "apps/v1, Kind=ReplicaSet",
    ]);
  });

  it("gives up on wildcard groups or versions and skips wildcard resources", () => {
    expect(names(matching(["*"], ["v1"], ["deployments"]))).toEqual([]);
    expect(names(matching(["apps"], ["v*"], ["deployments"]))).toEqual([]);
    expect(names(matching(["apps"], ["v1"], ["*", "deployments"]))).toEqual(["apps/v1, Kind=Deployment"]);
    expect(names(undefined)).toEqual([]);
  });

  it("stops at ten kinds", () => {
    const many = ["pods", "services", "configmaps", "secrets", "endpoints", "events", "nodes", "namespaces"];
    const match = {
      resourceRules: [
        { apiGroups: [""], apiVersions: ["v1"], resources: many },
        { apiGroups: ["apps"], apiVersions: ["v1"], resources: ["deployments", "replicasets", "statefulsets"] },
      ],
    };
    expect(kindsToCheck(match, api.kinds)).toHaveLength(10);
  });
});

describe("PolicyTypeChecker (kube's controller_test.go cases)", () => {
  it("a correct expression has no warnings", async () => {
    expect(
      await checker.check({ matchConstraints: deployments, validations: [{ expression: "object.spec.replicas > 1" }] }),
    ).toEqual([]);
  });

  it("reports type confusion on the expression's field", async () => {
    const warnings = await checker.check({
      matchConstraints: deployments,
      validations: [{ expression: "object.spec.replicas < 100" }, { expression: "object.spec.replicas > '1'" }],
    });
    expect(warnings).toEqual([
      {
        fieldRef: "spec.validations[1].expression",
        warning: [
          "apps/v1, Kind=Deployment: ERROR: <input>:1:22: found no matching overload for '_>_' applied to '(int, string)'",
          " | object.spec.replicas > '1'",
          " | .....................^",
          "",
        ].join("\n"),
      },
    ]);
  });

  it("reports each expression, and every issue of one", async () => {
    const warnings = await checker.check({
      matchConstraints: deployments,
      validations: [
        { expression: "object.spec.nonExistingFirst > 1" },
        { expression: "object.spec.replicas > '1' && object.spec.nonExisting == 1" },
      ],
    });
    expect(warnings.map((w) => w.fieldRef)).toEqual([
      "spec.validations[0].expression",
      "spec.validations[1].expression",
    ]);
    expect(warnings[0]?.warning).toContain("undefined field 'nonExistingFirst'");
    expect(warnings[1]?.warning).toContain("undefined field 'nonExisting'");
    expect(warnings[1]?.warning).toContain("found no matching overload for '_>_' applied to '(int, string)'");
  });

  it("checks every matched kind and message expressions", async () => {
    const warnings = await checker.check({
      matchConstraints: matching(["apps"], ["v1"], ["deployments", "replicasets"]),
      validations: [{ expression: "object.replicas > 1", messageExpression: "object.spec.replicas" }],
    });
    expect(warnings).toEqual([
      {
        fieldRef: "spec.validations[0].expression",
        warning: [
          "apps/v1, Kind=Deployment: ERROR: <input>:1:7: undefined field 'replicas'",
          " | object.replicas > 1",
          " | ......^",
          "",
          "apps/v1, Kind=ReplicaSet: ERROR: <input>:1:7: undefined field 'replicas'",
          " | object.replicas > 1",
          " | ......^",
          "",
        ].join("\n"),
      },
    ]);
  });

  it("types metadata, int-or-string fields, variables, request and namespaceObject", async () => {
    const warnings = await checker.check({
      matchConstraints: deployments,
      variables: [
        { name: "replicas", expression: "object.spec.replicas" },
        { name: "twice", expression: "variables.replicas * 2" },
      ],
      validations: [
        {
          expression:
            "object.metadata.labels['app'] == 'x' && object.metadata.creationTimestamp < timestamp('2030-01-01T00:00:00Z')",
        },
        {
          expression:
            "object.spec.strategy.rollingUpdate.maxSurge == 1 || object.spec.strategy.rollingUpdate.maxSurge == '25%'",
        },
        { expression: "variables.twice > 2 && variables.twice == 'x'" },
        { expression: "request.operation == 'CREATE' && namespaceObject.metadata.labels['a'] == 'b'" },
        { expression: "authorizer.group('apps').resource('deployments').check('get').allowed()" },
      ],
    });
    expect(warnings.map((w) => w.fieldRef)).toEqual(["spec.validations[2].expression"]);
    expect(warnings[0]?.warning).toContain("found no matching overload for '_==_' applied to '(int, string)'");
  });

  it("declares params only with a paramKind whose schema resolves", async () => {
    const validations = [{ expression: "object.spec.replicas <= int(params.data.max)" }];
    const none = await checker.check({ matchConstraints: deployments, validations });
    expect(none[0]?.warning).toContain("undeclared reference to 'params'");
    const typed = await checker.check({
      matchConstraints: deployments,
      paramKind: { apiVersion: "v1", kind: "ConfigMap" },
      validations: [...validations, { expression: "params.spec.max > 1" }],
    });
    expect(typed.map((w) => w.fieldRef)).toEqual(["spec.validations[1].expression"]);
    expect(typed[0]?.warning).toContain("undefined field 'spec'");
  });

  it("checks nothing when no kind can be resolved", async () => {
    expect(
      await checker.check({
        matchConstraints: matching(["*"], ["*"], ["*"]),
        validations: [{ expression: "object.nope.nope > '1'" }],
      }),
    ).toEqual([]);
  });

  it("reports the literal validators' errors too", async () => {
    const warnings = await checker.check({
      matchConstraints: deployments,
      validations: [{ expression: "object.metadata.name.matches('[')" }],
    });
    expect(warnings[0]?.warning).toContain("invalid matches argument");
  });
});
