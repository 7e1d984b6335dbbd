// Object name formats (a kind's `nameFormat`), returning kube's messages for field.Invalid details,
// e.g. `metadata.name: Invalid value: "A": a lowercase RFC 1123 subdomain must consist of …`.
import type { NameFormat } from "../registry/kind-record.js";

const labelFmt = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const subdomainFmt = `${labelFmt}(\\.${labelFmt})*`;
const label = new RegExp(`^${labelFmt}$`);
const dns1035LabelFmt = "[a-z]([-a-z0-9]*[a-z0-9])?";
const dns1035Label = new RegExp(`^${dns1035LabelFmt}$`);
const subdomain = new RegExp(`^${subdomainFmt}$`);

/** apimachinery's RegexError: examples are each followed by ", " and joined by " or ". */
function regexError(msg: string, fmt: string, examples: string[]): string {
  const shown = examples.map((e) => `'${e}', `).join(" or ");
  return `${msg} (e.g. ${shown}regex used for validation is '${fmt}')`;
}

function maxLen(n: number): string {
  return `must be no more than ${n} characters`;
}

export function dnsLabelErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push(maxLen(63));
  if (!label.test(value)) {
    const msg =
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
    errs.push(regexError(msg, labelFmt, ["my-name", "123-abc"]));
  }
  return errs;
}

export function dns1035LabelErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push(maxLen(63));
  if (!dns1035Label.test(value)) {
    const msg =
      "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
    errs.push(regexError(msg, dns1035LabelFmt, ["my-name", "abc-123"]));
  }
  return errs;
}

export function dnsSubdomainErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 253) errs.push(maxLen(253));
  if (!subdomain.test(value)) {
    const msg =
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
    errs.push(regexError(msg, subdomainFmt, ["example.com"]));
  }
  return errs;
}

export function pathSegmentErrors(value: string): string[] {
  if (value === "." || value === "..") return [`may not be '${value}'`];
  const errs: string[] = [];
  for (const bad of ["/", "%"]) if (value.includes(bad)) errs.push(`may not contain '${bad}'`);
  return errs;
}

/** The messages for a name in the given format; empty when valid. */
export function nameErrors(format: NameFormat, value: string): string[] {
  switch (format) {
    case "dns-label":
      return dnsLabelErrors(value);
    case "dns-1035-label":
      return dns1035LabelErrors(value);
    case "dns-subdomain":
      return dnsSubdomainErrors(value);
    case "path-segment":
      return pathSegmentErrors(value);
  }
}
