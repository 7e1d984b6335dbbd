// A conversion webhook's client config, as apiserver's webhook validation checks it: an https URL
// with a host and no user info, query or fragment (parsed the way Go's net/url parses it), or a
// service reference with a valid port and path; a CA bundle of PEM certificates.
import { X509Certificate } from "node:crypto";
import { type FieldError, invalid, required } from "../../errors/field-error.js";
import { child } from "../../errors/field-path.js";
import { goQuote } from "../../errors/go-format.js";
import { portNumberErrors } from "../../validation/field-rules.js";
import { dnsSubdomainErrors } from "../../validation/name-formats.js";
import type { ServiceReference } from "./internal-spec.js";

interface GoUrl {
  scheme: string;
  host: string;
  user?: string;
  rawQuery: string;
  fragment: string;
}

const urlForm = "; desired format: https://host[/path]";

function isControl(ch: string): boolean {
  const code = ch.codePointAt(0) ?? 0;
  return code < 0x20 || code === 0x7f;
}

/** The parts of a URL Go's url.Parse yields, or its error text. */
function parseGoUrl(raw: string): GoUrl | { error: string } {
  const fail = (msg: string) => ({ error: `parse ${goQuote(raw)}: ${msg}` });
  if ([...raw].some(isControl)) return fail("net/url: invalid control character in URL");
  const badEscape = /%(?![0-9a-fA-F]{2})/.exec(raw);
  if (badEscape !== null) return fail(`invalid URL escape ${goQuote(raw.slice(badEscape.index, badEscape.index + 3))}`);
  const hash = raw.indexOf("#");
  const fragment = hash < 0 ? "" : raw.slice(hash + 1);
  let rest = hash < 0 ? raw : raw.slice(0, hash);
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(rest);
  if (rest.startsWith(":")) return fail("missing protocol scheme");
  if (scheme !== null) rest = rest.slice((scheme[1] ?? "").length + 1);
  const question = rest.indexOf("?");
  const rawQuery = question < 0 ? "" : rest.slice(question + 1);
  if (question >= 0) rest = rest.slice(0, question);
  let host = "";
  let user: string | undefined;
  if (rest.startsWith("//")) {
    const slash = rest.indexOf("/", 2);
    let authority = slash < 0 ? rest.slice(2) : rest.slice(2, slash);
    const at = authority.lastIndexOf("@");
    if (at >= 0) {
      user = authority.slice(0, at);
      authority = authority.slice(at + 1);
    }
    const port = /^(\[[^\]]*\]|[^:]*)(:.*)?$/.exec(authority)?.[2];
    if (port !== undefined && !/^:\d*$/.test(port)) return fail(`invalid port ${goQuote(port)} after host`);
    host = authority;
  }
  const url: GoUrl = { scheme: scheme?.[1]?.toLowerCase() ?? "", host, rawQuery, fragment };
  if (user !== undefined) url.user = user;
  return url;
}

/** ValidateWebhookURL with https required. */
export function webhookUrlErrors(path: string, raw: string): FieldError[] {
  const url = parseGoUrl(raw);
  if ("error" in url) return [required(path, `url must be a valid URL: ${url.error}${urlForm}`)];
  const errs: FieldError[] = [];
  if (url.scheme !== "https") errs.push(invalid(path, url.scheme, `'https' is the only allowed URL scheme${urlForm}`));
  if (url.host === "") errs.push(invalid(path, url.host, `host must be specified${urlForm}`));
  if (url.user !== undefined) errs.push(invalid(path, url.user, "user information is not permitted in the URL"));
  if (url.fragment !== "") errs.push(invalid(path, url.fragment, "fragments are not permitted in the URL"));
  if (url.rawQuery !== "") errs.push(invalid(path, url.rawQuery, "query parameters are not permitted in the URL"));
  return errs;
}

/** ValidateWebhookService; name and namespace left out are the schema validators' to report. */
export function webhookServiceErrors(path: string, service: ServiceReference): FieldError[] {
  const errs: FieldError[] = [];
  if (service.name === "") errs.push(required(child(path, "name"), "service name is required"));
  if (service.namespace === "") errs.push(required(child(path, "namespace"), "service namespace is required"));
  if (typeof service.port === "number") {
    const portErrs = portNumberErrors(service.port);
    if (portErrs.length > 0)
      errs.push(invalid(child(path, "port"), service.port, `port is not valid: ${portErrs.join(", ")}`));
  }
  const urlPath = service.path;
  if (urlPath === undefined || urlPath === "/" || urlPath === "") return errs;
  const pathField = child(path, "path");
  if (urlPath === "//") return [...errs, invalid(pathField, urlPath, "segment[0] may not be empty")];
  if (!urlPath.startsWith("/")) errs.push(invalid(pathField, urlPath, "must start with a '/'"));
  let toCheck = urlPath.slice(1);
  if (toCheck.endsWith("/")) toCheck = toCheck.slice(0, -1);
  toCheck.split("/").forEach((step, i) => {
    if (step === "") {
      errs.push(invalid(pathField, urlPath, `segment[${i}] may not be empty`));
      return;
    }
    for (const failure of dnsSubdomainErrors(step)) errs.push(invalid(pathField, urlPath, `segment[${i}]: ${failure}`));
  });
  return errs;
}

/** ValidateCABundle: the bundle must hold PEM certificates. */
export function caBundleErrors(path: string, caBundle: string): FieldError[] {
  const pem = Buffer.from(caBundle, "base64").toString("latin1");
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  const parses = (block: string) => {
    try {
      new X509Certificate(block);
      return true;
    } catch {
      return false;
    }
  };
  if (blocks.length > 0 && blocks.every(parses)) return [];
  return [invalid(path, caBundle, "data does not contain any valid RSA or ECDSA certificates")];
}
