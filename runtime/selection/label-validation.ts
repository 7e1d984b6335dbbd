// Label keys and values checked as apimachinery's IsLabelKey (which IsQualifiedName now is) and IsLabelValue
// do, returning their messages verbatim: selector parse errors and LabelSelector validation both print them.
// Their length limits are in bytes and say so, unlike the DNS name checks' "characters".
import { dnsSubdomainErrors } from "../validation/name-formats.js";

const qualifiedNameFmt = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const qualifiedName = new RegExp(`^${qualifiedNameFmt}$`);
const qualifiedNameMsg =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const labelValueFmt = `(${qualifiedNameFmt})?`;
const labelValue = new RegExp(`^${labelValueFmt}$`);
const labelValueMsg =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

/** apimachinery's RegexError: every example is followed by ", " and they are joined by " or ". */
function regexError(msg: string, fmt: string, examples: readonly string[]): string {
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(" or ")}regex used for validation is '${fmt}')`;
}

/** Go measures strings in bytes. */
function byteLength(s: string): number {
  return Buffer.byteLength(s, "utf8");
}

/** IsQualifiedName: `[prefix/]name`, the prefix a DNS subdomain, the name at most 63 bytes. */
export function qualifiedNameErrors(value: string): string[] {
  const parts = value.split("/");
  const errs: string[] = [];
  if (parts.length > 2) {
    return [
      `a valid label key ${regexError(qualifiedNameMsg, qualifiedNameFmt, ["MyName", "my.name", "123-abc"])} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  const name = parts.length === 2 ? (parts[1] ?? "") : value;
  if (parts.length === 2) {
    const prefix = parts[0] ?? "";
    if (prefix === "") errs.push("prefix part must be non-empty");
    else errs.push(...dnsSubdomainErrors(prefix).map((m) => `prefix part ${m}`));
  }
  if (name === "") errs.push("name part must be non-empty");
  else if (byteLength(name) > 63) errs.push("name part must be no more than 63 bytes");
  if (!qualifiedName.test(name)) {
    errs.push(`name part ${regexError(qualifiedNameMsg, qualifiedNameFmt, ["MyName", "my.name", "123-abc"])}`);
  }
  return errs;
}

/** IsValidLabelValue: empty, or at most 63 bytes of `[-A-Za-z0-9_.]` starting and ending alphanumeric. */
export function labelValueErrors(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > 63) errs.push("must be no more than 63 bytes");
  if (!labelValue.test(value)) errs.push(regexError(labelValueMsg, labelValueFmt, ["MyValue", "my_value", "12345"]));
  return errs;
}
