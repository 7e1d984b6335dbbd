// Table tests for Kubernetes' format library (runtime/cel/library/kubernetes/format.ts), with the cases
// and messages of k8s.io/apiserver/pkg/cel/library/format_test.go and Kubernetes' cost formulas.
import { describe, expect, it } from "vitest";
import { type CelList, CelOptional, type CelValue } from "../../../../../runtime/cel/common/values.js";
import { formatLibrary, type NamedFormat } from "../../../../../runtime/cel/library/kubernetes/format.js";
import { stringsLibrary } from "../../../../../runtime/cel/library/strings.js";
import { evaluator, itHolds } from "../evaluate.js";
import { call, overload } from "./call-overload.js";

const NAMES = [
  "dns1123Label",
  "dns1123Subdomain",
  "dns1035Label",
  "qualifiedName",
  "dns1123LabelPrefix",
  "dns1123SubdomainPrefix",
  "dns1035LabelPrefix",
  "labelValue",
  "uri",
  "uuid",
  "byte",
  "date",
  "datetime",
];

function format(name: string): NamedFormat {
  return call(formatLibrary, `format.${name}`) as NamedFormat;
}

/** `format.<name>().validate(s)` as undefined (none) or the messages. */
function validate(name: string, s: string): string[] | undefined {
  const result = call(formatLibrary, "format-validate", format(name), s) as CelOptional;
  return result.hasValue() ? ((result.value as CelList).toArray() as string[]) : undefined;
}

const LABEL_MESSAGE =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const SUBDOMAIN_MESSAGE =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const DNS1035_MESSAGE =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

const cases: readonly (readonly [string, string, string[] | undefined])[] = [
  ["dns1123Label", "my-label-name", undefined],
  ["dns1123Subdomain", "apiextensions.k8s.io", undefined],
  ["qualifiedName", "apiextensions.k8s.io/v1beta1", undefined],
  ["dns1123LabelPrefix", "my-label-prefix-", undefined],
  ["dns1123SubdomainPrefix", "mysubdomain.prefix.-", undefined],
  ["dns1035LabelPrefix", "my-label-prefix-", undefined],
  ["uri", "http://example.com", undefined],
  ["uuid", "123e4567-e89b-12d3-a456-426614174000", undefined],
  ["uuid", "123E4567E89B12D3A456426614174000", undefined],
  ["byte", "aGVsbG8=", undefined],
  ["date", "2021-01-01", undefined],
  ["date", "2020-02-29", undefined],
  ["datetime", "2021-01-01T00:00:00Z", undefined],
  ["datetime", "2021-01-01t10:20:30.123+01:00", undefined],
  ["dns1123Label", "contains a space", [LABEL_MESSAGE]],
  ["dns1123Subdomain", "contains a space", [SUBDOMAIN_MESSAGE]],
  ["dns1035Label", "contains a space", [DNS1035_MESSAGE]],
  [
    "qualifiedName",
    "contains a space",
    [
      "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    ],
  ],
  ["dns1123LabelPrefix", "contains a space-", [LABEL_MESSAGE]],
  ["dns1123SubdomainPrefix", "contains a space-", [SUBDOMAIN_MESSAGE]],
  ["dns1035LabelPrefix", "contains a space-", [DNS1035_MESSAGE]],
  ["dns1123Label", "x".repeat(64), ["must be no more than 63 characters"]],
  ["labelValue", "my-cool-label-Value", undefined],
  [
    "labelValue",
    "my-cool-label-Value!!\n\n!!!",
    [
      "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    ],
  ],
  ["uri", "foo", ['parse "foo": invalid URI for request']],
  ["uuid", "not-a-uuid", ["does not match the UUID format"]],
  ["byte", "aGVsbG8", ["invalid base64"]],
  ["byte", "", ["invalid base64"]],
  ["date", "2020-01-32", ["invalid date"]],
  ["date", "2021-02-29", ["invalid date"]],
  ["date", "2021-1-01", ["invalid date"]],
  ["datetime", "2020-01-32T00:00:00Z", ["invalid datetime"]],
  ["datetime", "2020-01-01T24:00:00Z", ["invalid datetime"]],
  ["datetime", "2020-01-01", ["invalid datetime"]],
];

describe("<format>.validate", () => {
  for (const [name, s, expected] of cases) {
    it(`format.${name}().validate(${JSON.stringify(s)})`, () => {
      expect(validate(name, s)).toEqual(expected);
    });
  }
});

describe("format.named and equality", () => {
  it("finds every format by name, equal to its constant", () => {
    for (const name of NAMES) {
      const named = call(formatLibrary, "format-named", name) as CelOptional;
      expect(named.hasValue()).toBe(true);
      expect((named.value as NamedFormat).equals(format(name))).toBe(true);
    }
  });
  it("gives none for an unknown name", () => {
    expect(call(formatLibrary, "format-named", "unknown")).toBe(CelOptional.none);
  });
  it("tells different formats apart", () => {
    for (const a of NAMES) for (const b of NAMES) if (a !== b) expect(format(a).equals(format(b))).toBe(false);
  });
});

describe("format costs", () => {
  const cost = overload(formatLibrary, "format-validate").cost;
  it("estimates a traversal times the largest name-format regex", () => {
    expect(cost?.estimate?.([undefined, { min: 0, max: 63 }])).toEqual({ min: 0, max: 224 });
  });
  it("charges the format's own regex size at run time", () => {
    const args: CelValue[] = [format("dns1123Label"), "my-name"];
    expect(cost?.actual?.(args, CelOptional.none)).toBe(8);
    expect(cost?.actual?.([format("uri"), "http://example.com"], CelOptional.none)).toBe(2 * 90);
  });
});

describe("format end to end", () => {
  const evaluate = evaluator(formatLibrary, stringsLibrary);
  const holds = [
    "!format.dns1123Label().validate('my-label-name').hasValue()",
    "format.named('dns1123Label').value() == format.dns1123Label()",
    "format.dns1123Label() != format.dns1035Label()",
    "!format.named('unknown').hasValue()",
    "format.date().validate('2020-01-32').value() == ['invalid date']",
    "format.dns1123Label().validate('Bad_Name').value().join('\\n').startsWith('a lowercase RFC 1123 label')",
  ];
  itHolds(evaluate, holds);
});
