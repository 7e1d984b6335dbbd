// The `format`s a CustomResourceDefinition schema may use and how kube-openapi's strfmt registry checks
// them. Formats kube does not support for a type are dropped when the schema is compiled
// (apiextensions' StripUnsupportedFormatsPostProcessorForVersion at 1.36): unknown string formats,
// integer formats other than int32/int64, number formats other than float/double.

import { isIP, isIPv4, isIPv6 } from "node:net";
import { CelError } from "../../cel/common/values.js";
import { parseDate, parseDateTime, parseDuration } from "../../cel/rules/schema-formats.js";
import { quantityError } from "../../codecs/go-quantity.js";
import { isBase64 } from "../../validation/formats.js";
import { dnsLabelErrors, dnsSubdomainErrors } from "../../validation/name-formats.js";

const uuid = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const uuid3 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const uuid4 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const uuid5 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const hostname =
  /^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9\-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$/u;
const email = /^[^\s@<>]+@[^\s@<>]+$/;
const mac =
  /^(?:[0-9a-f]{2}(?:([:-])[0-9a-f]{2})(?:\1[0-9a-f]{2}){4}(?:(?:\1[0-9a-f]{2}){2}|(?:\1[0-9a-f]{2}){14})?|[0-9a-f]{4}\.[0-9a-f]{4}\.[0-9a-f]{4}(?:(?:\.[0-9a-f]{4})|(?:\.[0-9a-f]{4}){7})?)$/i;
const uri = /^(?:[a-zA-Z][a-zA-Z0-9+.-]*:\S*|\/\S*)$/;
const bsonObjectId = /^[0-9a-fA-F]{24}$/;
const ssn = /^\d{3}[- ]?\d{2}[- ]?\d{4}$/;
const hexColor = /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
const byteValue = "(0|[1-9]\\d?|1\\d\\d?|2[0-4]\\d|25[0-5])";
const rgbColor = new RegExp(`^rgb\\(\\s*${byteValue}\\s*,\\s*${byteValue}\\s*,\\s*${byteValue}\\s*\\)$`);
const creditCard =
  /^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11})$/;

function isbn10(s: string): boolean {
  const digits = s.replace(/[\s-]/g, "");
  if (!/^\d{9}[\dX]$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < 10; i++) sum += (i + 1) * (digits[i] === "X" ? 10 : Number(digits[i]));
  return sum % 11 === 0;
}

function isbn13(s: string): boolean {
  const digits = s.replace(/[\s-]/g, "");
  if (!/^\d{13}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < 13; i++) sum += Number(digits[i]) * (i % 2 === 0 ? 1 : 3);
  return sum % 10 === 0;
}

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

function cidr(s: string): boolean {
  const slash = s.indexOf("/");
  if (slash < 0) return false;
  const ip = s.slice(0, slash);
  const bits = s.slice(slash + 1);
  const family = isIP(ip);
  if (family === 0 || !/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}

/** Each supported string format by its normalized name (dashes removed, as go-openapi looks formats up). */
const stringFormats: ReadonlyMap<string, (s: string) => boolean> = new Map<string, (s: string) => boolean>([
  ["bsonobjectid", (s) => bsonObjectId.test(s)],
  ["uri", (s) => uri.test(s)],
  ["email", (s) => email.test(s)],
  ["hostname", (s) => s.length <= 255 && hostname.test(s)],
  ["ipv4", (s) => isIPv4(s) || (isIPv6(s) && s.includes("."))],
  ["ipv6", (s) => isIP(s) !== 0 && s.includes(":")],
  ["cidr", cidr],
  ["mac", (s) => mac.test(s)],
  ["uuid", (s) => uuid.test(s)],
  ["uuid3", (s) => uuid3.test(s)],
  ["uuid4", (s) => uuid4.test(s)],
  ["uuid5", (s) => uuid5.test(s)],
  ["isbn", (s) => isbn10(s) || isbn13(s)],
  ["isbn10", isbn10],
  ["isbn13", isbn13],
  [
    "creditcard",
    (s) => {
      const digits = s.replace(/[^0-9]+/g, "");
      return creditCard.test(digits) && luhn(digits);
    },
  ],
  ["ssn", (s) => ssn.test(s)],
  ["hexcolor", (s) => hexColor.test(s)],
  ["rgbcolor", (s) => rgbColor.test(s)],
  ["byte", isBase64],
  ["password", () => true],
  ["date", (s) => !(parseDate(s) instanceof CelError)],
  ["duration", (s) => !(parseDuration(s) instanceof CelError)],
  ["datetime", (s) => s !== "" && !(parseDateTime(s) instanceof CelError)],
  ["quantity", (s) => quantityError(s) === undefined],
  ["k8sshortname", (s) => dnsLabelErrors(s).length === 0],
  ["k8slongname", (s) => dnsSubdomainErrors(s).length === 0],
]);

/**
 * The format a schema node keeps: `type` is its single type ("" when it has none or several, as with
 * x-kubernetes-int-or-string); undefined when kube drops the format.
 */
export function supportedFormat(type: string, format: string | undefined): string | undefined {
  if (format === undefined || format === "") return undefined;
  switch (type) {
    case "":
    case "string":
      return stringFormats.has(format.replaceAll("-", "")) ? format : undefined;
    case "integer":
      return format === "int32" || format === "int64" ? format : undefined;
    case "number":
      return format === "float" || format === "double" ? format : undefined;
    default:
      return undefined;
  }
}

/** The string check of a kept format; undefined for formats that only name a number's width. */
export function stringFormatCheck(format: string): ((s: string) => boolean) | undefined {
  return stringFormats.get(format.replaceAll("-", ""));
}
