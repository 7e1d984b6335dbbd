import { describe, expect, it } from "vitest";
import { nameErrors } from "../../../runtime/validation/name-formats.js";

describe("name formats", () => {
  it.each([
    ["dns-subdomain", "my.app-1", []],
    [
      "dns-subdomain",
      "My_App",
      [
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      ],
    ],
    ["dns-subdomain", "a".repeat(254), ["must be no more than 253 characters"]],
    ["dns-label", "web-1", []],
    [
      "dns-label",
      "a.b",
      [
        "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
      ],
    ],
    ["dns-1035-label", "svc-1", []],
    [
      "dns-1035-label",
      "1svc",
      [
        "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
      ],
    ],
    ["path-segment", "system:admin", []],
    ["path-segment", "..", ["may not be '..'"]],
    ["path-segment", "a/b%", ["may not contain '/'", "may not contain '%'"]],
  ] as const)("%s %j", (format, name, expected) => {
    expect(nameErrors(format, name)).toEqual(expected);
  });
});
