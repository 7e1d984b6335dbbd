import { describe, expect, it } from "vitest";
import { formatFieldError } from "../../../runtime/errors/format-field-error.js";
import {
  type LabelSelectorObject,
  labelSelectorFromObject,
  validateLabelSelector,
} from "../../../runtime/selection/label-selector-object.js";

const valueRegexMsg =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const nameRegexMsg =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

describe("validateLabelSelector", () => {
  it.each<[string, LabelSelectorObject | null, string[]]>([
    ["nil", null, []],
    ["empty", {}, []],
    [
      "valid",
      {
        matchLabels: { app: "web", "example.com/tier": "" },
        matchExpressions: [
          { key: "a", operator: "In", values: ["x"] },
          { key: "b", operator: "NotIn", values: ["y", "z"] },
          { key: "c", operator: "Exists" },
          { key: "d", operator: "DoesNotExist", values: [] },
        ],
      },
      [],
    ],
    [
      "In without values",
      { matchExpressions: [{ key: "app", operator: "In" }] },
      [
        "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
      ],
    ],
    [
      "NotIn with an empty list",
      { matchExpressions: [{ key: "app", operator: "NotIn", values: [] }] },
      [
        "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
      ],
    ],
    [
      "Exists with values",
      {
        matchExpressions: [
          { key: "a", operator: "In", values: ["x"] },
          { key: "app", operator: "Exists", values: ["x"] },
        ],
      },
      [
        "spec.selector.matchExpressions[1].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
      ],
    ],
    [
      "unknown operator, bad key and bad value",
      { matchExpressions: [{ key: "-k", operator: "Gt", values: ["-1"] }] },
      [
        'spec.selector.matchExpressions[0].operator: Invalid value: "Gt": not a valid selector operator',
        `spec.selector.matchExpressions[0].key: Invalid value: "-k": ${nameRegexMsg}`,
        `spec.selector.matchExpressions[0].values[0]: Invalid value: "-1": ${valueRegexMsg}`,
      ],
    ],
    [
      "bad matchLabels, in key order",
      { matchLabels: { squidex: "squidex=", "-bad": "ok" } },
      [
        `spec.selector.matchLabels: Invalid value: "-bad": ${nameRegexMsg}`,
        `spec.selector.matchLabels: Invalid value: "squidex=": ${valueRegexMsg}`,
      ],
    ],
  ])("%s", (_name, selector, expected) => {
    expect(validateLabelSelector(selector, "spec.selector").map(formatFieldError)).toEqual(expected);
  });

  it("lets invalid values through when asked to, for objects stored before they were checked", () => {
    const selector = { matchExpressions: [{ key: "a", operator: "In", values: ["-x"] }] };
    expect(validateLabelSelector(selector, "spec.selector", true)).toEqual([]);
  });
});

describe("labelSelectorFromObject", () => {
  it("selects nothing for a missing selector and everything for an empty one", () => {
    const none = labelSelectorFromObject(null);
    const all = labelSelectorFromObject({});
    if (!none.ok || !all.ok) throw new Error("unexpected failure");
    expect([none.selector.matches({}), none.selector.isEmpty(), none.selector.toString()]).toEqual([false, false, ""]);
    expect([all.selector.matches({}), all.selector.isEmpty(), all.selector.toString()]).toEqual([true, true, ""]);
  });

  it("builds the same matcher the string form parses to", () => {
    const r = labelSelectorFromObject({
      matchLabels: { b: "2", a: "1" },
      matchExpressions: [
        { key: "c", operator: "NotIn", values: ["y", "x"] },
        { key: "d", operator: "DoesNotExist" },
        { key: "e", operator: "Exists" },
        { key: "f", operator: "In", values: ["p"] },
      ],
    });
    if (!r.ok) throw new Error(r.error);
    expect(r.selector.toString()).toBe("a=1,b=2,c notin (x,y),!d,e,f in (p)");
    expect(r.selector.matches({ a: "1", b: "2", c: "z", e: "", f: "p" })).toBe(true);
    expect(r.selector.matches({ a: "1", b: "2", c: "x", e: "", f: "p" })).toBe(false);
  });

  it.each<[LabelSelectorObject, string]>([
    [
      { matchExpressions: [{ key: "a", operator: "Gt", values: ["1"] }] },
      '"Gt" is not a valid label selector operator',
    ],
    [{ matchLabels: { a: "-x" } }, `values[0][a]: Invalid value: "-x": ${valueRegexMsg}`],
    [
      { matchExpressions: [{ key: "a/b/c", operator: "Exists" }] },
      `key: Invalid value: "a/b/c": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ],
  ])("%j fails with kube's message", (selector, message) => {
    const r = labelSelectorFromObject(selector);
    expect(r.ok ? "ok" : r.error).toBe(message);
  });
});
