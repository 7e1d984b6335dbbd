// Who kapi is when it calls a webhook: kube's WebhookAdmissionConfiguration (apiserver.config.k8s.io/v1)
// names a kubeconfig file whose users are credentials per webhook host, matched as kube's authentication
// info resolver matches them: the exact `host:port`, then `*.<parent domains>`, then the host alone when the
// port is 443 (and its wildcards), then `*`, then the current context's user. A service is known by
// `<name>.<namespace>.svc:<port>`.
import { readFileSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";
import { parse } from "yaml";
import { invalid } from "../../errors/field-error.js";
import { formatFieldErrors } from "../../errors/format-field-error.js";
import { isJsonObject, type JsonObject } from "../../object/json-object.js";
import type { PluginConfig } from "../plugin-context.js";

/** What a kubeconfig user gives a webhook call. */
export interface WebhookCredentials {
  token?: string;
  cert?: string;
  key?: string;
  username?: string;
  password?: string;
}

/** Credentials for a `host:port`; none when the configuration names nothing for it. Throws when a file it names cannot be read. */
export type CredentialsResolver = (hostPort: string) => WebhookCredentials;

const groupVersion = "apiserver.config.k8s.io/v1";
const kindName = "WebhookAdmissionConfiguration";
const schemeName = "k8s.io/apiserver/pkg/admission/plugin/webhook/config/kubeconfig.go:34";
const knownFields = new Set(["apiVersion", "kind", "kubeConfigFile", "staticManifestsDir"]);

function text(entry: JsonObject, key: string): string {
  const value = entry[key];
  return typeof value === "string" ? value : "";
}

/** The kubeConfigFile a configuration names ("" for none); throws kube's startup errors. */
function kubeConfigFileOf(config: PluginConfig): string {
  let document: unknown;
  try {
    document = parse(config.text);
  } catch (error) {
    throw new Error(`couldn't get version/kind; json parse error: ${(error as Error).message}`);
  }
  if (!isJsonObject(document)) {
    throw new Error(
      `couldn't get version/kind; json parse error: json: cannot unmarshal ${Array.isArray(document) ? "array" : typeof document} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`,
    );
  }
  const kind = text(document, "kind");
  const apiVersion = text(document, "apiVersion");
  if (kind === "") throw new Error(`Object 'Kind' is missing in '${config.text}'`);
  if (apiVersion === "") throw new Error(`Object 'apiVersion' is missing in '${config.text}'`);
  if (kind !== kindName || apiVersion !== groupVersion) {
    throw new Error(
      `no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)} in scheme ${JSON.stringify(schemeName)}`,
    );
  }
  const unknown = Object.keys(document).filter((key) => !knownFields.has(key));
  if (unknown.length > 0) {
    throw new Error(`strict decoding error: ${unknown.map((key) => `unknown field "${key}"`).join(", ")}`);
  }
  const file = text(document, "kubeConfigFile");
  if (file !== "" && !isAbsolute(file)) {
    throw new Error(formatFieldErrors([invalid("kubeConfigFile", file, "must be an absolute file path")]));
  }
  return file;
}

function readMaterial(entry: JsonObject, key: string, base: string): string | undefined {
  const data = text(entry, `${key}-data`);
  if (data !== "") return Buffer.from(data, "base64").toString("utf8");
  const file = text(entry, key);
  return file === "" ? undefined : readFileSync(resolve(base, file), "utf8");
}

function credentialsOf(entry: JsonObject, base: string): WebhookCredentials {
  const credentials: WebhookCredentials = {};
  const token = text(entry, "token");
  const tokenFile = text(entry, "tokenFile");
  if (token !== "") credentials.token = token;
  else if (tokenFile !== "") credentials.token = readFileSync(resolve(base, tokenFile), "utf8");
  const cert = readMaterial(entry, "client-certificate", base);
  const key = readMaterial(entry, "client-key", base);
  if (cert !== undefined) credentials.cert = cert;
  if (key !== undefined) credentials.key = key;
  const username = text(entry, "username");
  const password = text(entry, "password");
  if (username !== "" || password !== "") Object.assign(credentials, { username, password });
  if (entry["auth-provider"] !== undefined && entry["auth-provider"] !== null) {
    throw new Error("auth provider not supported");
  }
  return credentials;
}

function namedEntries(list: unknown, field: string): Map<string, JsonObject> {
  const entries = new Map<string, JsonObject>();
  for (const item of Array.isArray(list) ? list : []) {
    if (!isJsonObject(item) || typeof item.name !== "string") continue;
    const value = item[field];
    entries.set(item.name, isJsonObject(value) ? value : {});
  }
  return entries;
}

function wildcards(host: string): string[] {
  const steps = host.split(".");
  return steps.slice(1).map((_, i) => `*.${steps.slice(i + 1).join(".")}`);
}

/** The candidate user names for a `host:port`, in the order kube tries them. */
function candidates(hostPort: string): string[] {
  const names = [hostPort, ...wildcards(hostPort)];
  const colon = hostPort.lastIndexOf(":");
  if (colon > 0 && hostPort.slice(colon + 1) === "443") {
    const host = hostPort.slice(0, colon).replace(/^\[(.*)\]$/, "$1");
    names.push(host, ...wildcards(host));
  }
  names.push("*");
  return names;
}

/**
 * The resolver of a plugin's configuration: none configured, or no kubeConfigFile, resolves to no
 * credentials. A bad configuration or unreadable kubeconfig throws kube's startup error.
 */
export function credentialsResolver(config: PluginConfig | undefined): CredentialsResolver {
  const file = config === undefined ? "" : kubeConfigFileOf(config);
  if (file === "") return () => ({});
  let document: unknown;
  try {
    document = parse(readFileSync(file, "utf8"));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new Error(`stat ${file}: no such file or directory`);
    throw new Error(`error loading config file "${file}": ${(error as Error).message}`);
  }
  const kubeconfig = isJsonObject(document) ? document : {};
  const base = dirname(file);
  const users = namedEntries(kubeconfig.users, "user");
  const contexts = namedEntries(kubeconfig.contexts, "context");
  const current = contexts.get(text(kubeconfig, "current-context"));
  const currentUser = current === undefined ? undefined : users.get(text(current, "user"));
  // Files a user names are read at each call, as kube reads them when it builds the webhook's client.
  return (hostPort) => {
    const entry = candidates(hostPort).find((name) => users.has(name));
    const user = entry === undefined ? currentUser : users.get(entry);
    return user === undefined ? {} : credentialsOf(user, base);
  };
}
