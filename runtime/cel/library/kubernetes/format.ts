// Kubernetes' format library (k8s.io/apiserver/pkg/cel/library/format.go, from 1.31): named string
// formats as values of type `kubernetes.NamedFormat`, from `format.named(name)` (an optional) or
// `format.<name>()`, and `<format>.validate(s)`, which is optional.none() for a valid string or else
// the list of Kubernetes' validation messages. Name formats reuse kapi's validators; the CRD formats
// (uri, uuid, byte, date, datetime) check as kube-openapi's strfmt does.

import { labelValueErrors, qualifiedNameErrors } from "../../../selection/label-validation.js";
import { dns1035LabelErrors, dnsLabelErrors, dnsSubdomainErrors } from "../../../validation/name-formats.js";
import { listType, opaqueType, optionalType, StringType } from "../../common/cel-types.js";
import type { CelLibrary, FunctionDecl, OverloadCost } from "../../common/decls.js";
import { ArrayList, CelOpaque, CelOptional, type CelValue } from "../../common/values.js";
import { actualSize, multiplyByCostFactor, STRING_TRAVERSAL_COST_FACTOR, sizeOf } from "../kubernetes-cost.js";
import { declareFunction, globalOverload, memberOverload } from "../standard/declare.js";
import { REGEX_STRING_LENGTH_COST_FACTOR } from "../standard/standard-cost.js";
import { parseRequestURI } from "./go-url.js";

export const NamedFormatType = opaqueType("kubernetes.NamedFormat");

/** A named format; formats are equal when their names are. */
export class NamedFormat extends CelOpaque {
  readonly celType = NamedFormatType;
  constructor(
    readonly name: string,
    readonly check: (s: string) => string[],
    /** The length of the (equivalent) regular expression, for the cost of `validate`. */
    readonly maxRegexSize: number,
  ) {
    super();
  }
  equals(other: CelValue): boolean {
    return other instanceof NamedFormat && other.name === this.name;
  }
}

/** apimachinery's maskTrailingDash: a name that gets a suffix may end in a dash. */
function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith("-") ? `${name.slice(0, -2)}a` : name;
}

function prefixed(check: (s: string) => string[]): (s: string) => string[] {
  return (s) => check(maskTrailingDash(s));
}

/** Go's url.ParseRequestURI error, as the uri format reports it. */
function uriErrors(s: string): string[] {
  const parsed = parseRequestURI(s);
  return parsed.ok ? [] : [parsed.error];
}

// kube-openapi strfmt's UUIDPattern and govalidator's Base64.
const UUID_PATTERN = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const BASE64_PATTERN = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$/;
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
// strfmt's DateTimePattern, applied to the lower-cased part after the `t`; its `.` is any character.
const TIME_PATTERN = /^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$/;

/** strfmt.IsDate: Go's time.Parse("2006-01-02"), which checks the day against the month. */
function isDate(s: string): boolean {
  const m = DATE_PATTERN.exec(s);
  if (m === null) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return month >= 1 && month <= 12 && day >= 1 && day <= daysIn(year, month);
}

function daysIn(year: number, month: number): number {
  if (month !== 2) return [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] as number;
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
}

/** strfmt.IsDateTime: a date, a `t`, and a time checked by pattern and by its hour, minute and second digits. */
function isDateTime(s: string): boolean {
  if (s.length < 4) return false;
  const parts = s.toLowerCase().split("t");
  if (parts.length < 2 || !isDate(parts[0] as string)) return false;
  const m = TIME_PATTERN.exec(parts[1] as string);
  return m !== null && (m[1] as string) <= "23" && (m[2] as string) <= "59" && (m[3] as string) <= "59";
}

function failsWith(message: string, valid: (s: string) => boolean): (s: string) => string[] {
  return (s) => (valid(s) ? [] : [message]);
}

// Lengths of the regular expressions Kubernetes counts for cost: govalidator.URL, strfmt.UUIDPattern,
// govalidator.Base64 and strfmt.DateTimePattern as Go source text.
const URL_REGEX_SIZE = 357;
const UUID_REGEX_SIZE = 70;
const BASE64_REGEX_SIZE = 84;
const DATE_TIME_REGEX_SIZE = 71;

/** Kubernetes' ConstantFormats, by the name `format.<name>()` and `format.named()` use. */
const FORMATS: ReadonlyMap<string, NamedFormat> = new Map([
  ["dns1123Label", new NamedFormat("DNS1123Label", dnsLabelErrors, 30)],
  ["dns1123Subdomain", new NamedFormat("DNS1123Subdomain", dnsSubdomainErrors, 60)],
  ["dns1035Label", new NamedFormat("DNS1035Label", dns1035LabelErrors, 30)],
  ["qualifiedName", new NamedFormat("QualifiedName", qualifiedNameErrors, 60)],
  ["dns1123LabelPrefix", new NamedFormat("DNS1123LabelPrefix", prefixed(dnsLabelErrors), 30)],
  ["dns1123SubdomainPrefix", new NamedFormat("DNS1123SubdomainPrefix", prefixed(dnsSubdomainErrors), 60)],
  ["dns1035LabelPrefix", new NamedFormat("DNS1035LabelPrefix", prefixed(dns1035LabelErrors), 30)],
  ["labelValue", new NamedFormat("LabelValue", labelValueErrors, 40)],
  ["uri", new NamedFormat("URI", uriErrors, URL_REGEX_SIZE)],
  [
    "uuid",
    new NamedFormat(
      "uuid",
      failsWith("does not match the UUID format", (s) => UUID_PATTERN.test(s)),
      UUID_REGEX_SIZE,
    ),
  ],
  [
    "byte",
    new NamedFormat(
      "byte",
      failsWith("invalid base64", (s) => BASE64_PATTERN.test(s)),
      BASE64_REGEX_SIZE,
    ),
  ],
  ["date", new NamedFormat("date", failsWith("invalid date", isDate), DATE_TIME_REGEX_SIZE)],
  ["datetime", new NamedFormat("datetime", failsWith("invalid datetime", isDateTime), DATE_TIME_REGEX_SIZE)],
]);

function validate(format: NamedFormat, s: string): CelValue {
  const errors = format.check(s);
  if (errors.length === 0) return CelOptional.none;
  const list = new ArrayList(errors);
  list.elemType = StringType;
  return new CelOptional(list);
}

/** Kubernetes' largest name-format regular expression, which the static estimate assumes. */
const MAX_NAME_FORMAT_REGEX_SIZE = 128;

/** As `matches` with the format's regular expression: (1 + length) × 0.1 times regex length × 0.25. */
const validateCost: OverloadCost = {
  estimate: (args) =>
    multiplyByCostFactor(
      multiplyByCostFactor(sizeOf(args[1]), STRING_TRAVERSAL_COST_FACTOR),
      MAX_NAME_FORMAT_REGEX_SIZE * REGEX_STRING_LENGTH_COST_FACTOR,
    ),
  actual: (args) =>
    Math.ceil((1 + actualSize(args[1] as CelValue)) * STRING_TRAVERSAL_COST_FACTOR) *
    Math.ceil((args[0] as NamedFormat).maxRegexSize * REGEX_STRING_LENGTH_COST_FACTOR),
};

const functions: FunctionDecl[] = [
  declareFunction(
    "validate",
    memberOverload(
      "format-validate",
      [NamedFormatType, StringType],
      optionalType(listType(StringType)),
      ([format, s]) => validate(format as NamedFormat, s as string),
      validateCost,
    ),
  ),
  declareFunction(
    "format.named",
    globalOverload("format-named", [StringType], optionalType(NamedFormatType), ([name]) => {
      const format = FORMATS.get(name as string);
      return format === undefined ? CelOptional.none : new CelOptional(format);
    }),
  ),
  ...[...FORMATS].map(([name, format]) =>
    declareFunction(
      `format.${name}`,
      globalOverload(`format.${name}`, [], NamedFormatType, () => format),
    ),
  ),
];

export const formatLibrary: CelLibrary = { name: "format", functions };
