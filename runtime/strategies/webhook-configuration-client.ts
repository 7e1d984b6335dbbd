// Where a webhook is called (WebhookClientConfig), as apiserver's webhook validation checks it: exactly
// one of url and service; an https URL with a host and no user information, query or fragment, parsed
// as Go's net/url parses it; a service with name, namespace, a valid port and a path of DNS subdomains.
import { parseURL } from "../cel/library/kubernetes/go-url.js";
import { type FieldError, invalid, required } from "../errors/field-error.js";
import { child } from "../errors/field-path.js";
import { portNumberErrors } from "../validation/field-rules.js";
import { dnsSubdomainErrors } from "../validation/name-formats.js";
import { asObject } from "../validation/walk.js";

const urlForm = "; desired format: https://host[/path]";

/** ValidateWebhookURL with https required. */
function validateUrl(raw: string, path: string): FieldError[] {
  const parsed = parseURL(raw);
  if (!parsed.ok) return [required(path, `url must be a valid URL: ${parsed.error}${urlForm}`)];
  const url = parsed.url;
  const errs: FieldError[] = [];
  if (url.scheme !== "https") errs.push(invalid(path, url.scheme, `'https' is the only allowed URL scheme${urlForm}`));
  if (url.host === "") errs.push(invalid(path, url.host, `host must be specified${urlForm}`));
  if (url.user !== undefined) {
    const { username, password } = url.user;
    const user = password === undefined ? username : `${username}:${password}`;
    errs.push(invalid(path, user, "user information is not permitted in the URL"));
  }
  if (url.fragment !== "") errs.push(invalid(path, url.fragment, "fragments are not permitted in the URL"));
  if (url.rawQuery !== "") errs.push(invalid(path, url.rawQuery, "query parameters are not permitted in the URL"));
  return errs;
}

function validateServicePath(urlPath: string, path: string): FieldError[] {
  if (urlPath === "/" || urlPath === "") return [];
  if (urlPath === "//") return [invalid(path, urlPath, "segment[0] may not be empty")];
  const errs: FieldError[] = [];
  if (!urlPath.startsWith("/")) errs.push(invalid(path, urlPath, "must start with a '/'"));
  let steps = urlPath.slice(1);
  if (steps.endsWith("/")) steps = steps.slice(0, -1);
  steps.split("/").forEach((step, i) => {
    if (step === "") {
      errs.push(invalid(path, urlPath, `segment[${i}] may not be empty`));
      return;
    }
    for (const failure of dnsSubdomainErrors(step)) errs.push(invalid(path, urlPath, `segment[${i}]: ${failure}`));
  });
  return errs;
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === "";
}

/** ValidateWebhookService. */
function validateService(service: Record<string, unknown>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (isEmpty(service.name)) errs.push(required(child(path, "name")));
  if (isEmpty(service.namespace)) errs.push(required(child(path, "namespace")));
  const port = typeof service.port === "number" ? service.port : 0;
  const portErrs = portNumberErrors(port);
  if (portErrs.length > 0) errs.push(invalid(child(path, "port"), port, `port is not valid: ${portErrs.join(", ")}`));
  if (typeof service.path === "string") errs.push(...validateServicePath(service.path, child(path, "path")));
  return errs;
}

/** The clientConfig of the webhook at `path` (`webhooks[0]`). */
export function validateClientConfig(clientConfig: unknown, path: string): FieldError[] {
  const config = asObject(clientConfig) ?? {};
  const configPath = child(path, "clientConfig");
  const url = typeof config.url === "string" ? config.url : undefined;
  const service = asObject(config.service);
  if ((url === undefined) === (service === undefined)) {
    return [required(configPath, "exactly one of url or service is required")];
  }
  if (url !== undefined) return validateUrl(url, child(configPath, "url"));
  return service === undefined ? [] : validateService(service, child(configPath, "service"));
}
