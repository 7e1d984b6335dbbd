import { describe, expect, it } from "vitest";
import { compileMatchConditions, evaluateMatchConditions } from "../../../../runtime/authz/webhook/match-conditions.js";
import { subjectAccessReviewSpec } from "../../../../runtime/authz/webhook/review-request.js";
import { pathRequest, resourceRequest } from "../authz-fixtures.js";

const user = { name: "jane", groups: ["dev"] };

function matches(expressions: string[], spec = subjectAccessReviewSpec(resourceRequest(user))) {
  const compiled = compileMatchConditions(expressions.map((expression) => ({ expression })));
  expect(compiled.errors).toEqual([]);
  return evaluateMatchConditions(compiled.conditions, spec);
}

describe("authorization match conditions", () => {
  it("see every string field of the spec, empty ones included", () => {
    expect(
      matches([
        "request.resourceAttributes.subresource == '' && request.resourceAttributes.version == 'v1'",
        "request.uid == '' && size(request.extra) == 0 && !has(request.nonResourceAttributes)",
      ]),
    ).toEqual({ matches: true });
    expect(
      matches(
        ["has(request.nonResourceAttributes) && request.nonResourceAttributes.path.startsWith('/healthz')"],
        subjectAccessReviewSpec(pathRequest(user, "/healthz/etcd")),
      ),
    ).toEqual({ matches: true });
  });

  it("see selectors as requirements", () => {
    const spec = subjectAccessReviewSpec(
      resourceRequest(user, {
        verb: "list",
        fieldSelector: { requirements: [{ field: "spec.nodeName", operator: "=", value: "n1" }] },
      }),
    );
    expect(
      matches(
        [
          "has(request.resourceAttributes.fieldSelector) && request.resourceAttributes.fieldSelector.requirements.exists(r, r.key == 'spec.nodeName' && r.operator == 'In' && r.values == ['n1'])",
          "!has(request.resourceAttributes.labelSelector)",
        ],
        spec,
      ),
    ).toEqual({ matches: true });
  });

  it("report every error, unless one condition is false", () => {
    expect(matches(["request.extra['a'][0] == 'x'", "request.groups[5] == 'y'"])).toEqual({
      error: expect.stringMatching(
        /^\[cel evaluation error: expression .* resulted in error: .*, cel evaluation error: /,
      ),
    });
    expect(matches(["request.extra['a'][0] == 'x'", "request.user == 'bob'"])).toEqual({ matches: false });
    expect(evaluateMatchConditions([], subjectAccessReviewSpec(resourceRequest(user)))).toEqual({ matches: true });
  });
});
