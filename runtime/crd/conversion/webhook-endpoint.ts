// Where a CRD's conversion webhook is called: its clientConfig names either a URL or a service, as
// apiextensions.k8s.io/v1 WebhookClientConfig does. A service is reached at `https://<name>.<namespace>.svc`
// on its port (443 unless given) and path, and its certificate must name that host, as kube's service
// resolver and TLS configuration have it; `caBundle` (base64 PEM) replaces the system roots when set.
import { isJsonObject, type JsonObject } from "../../object/json-object.js";

export interface ServiceReference {
  namespace: string;
  name: string;
  port: number;
  /** The request path, `""` when the reference has none. */
  path: string;
}

/** Turns a service reference into the URL to call (kapi runs no cluster network of its own). */
export type ServiceResolver = (service: ServiceReference) => string;

export interface WebhookEndpoint {
  url: URL;
  /** PEM of the CAs to trust; undefined trusts the system roots. */
  ca?: string;
  /** The name the serving certificate must carry, when it is not the URL's host. */
  serverName?: string;
}

export const defaultServiceResolver: ServiceResolver = (s) => `https://${s.name}.${s.namespace}.svc:${s.port}${s.path}`;

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function serviceReference(service: JsonObject): ServiceReference {
  const port = service.port;
  return {
    namespace: text(service.namespace),
    name: text(service.name),
    port: typeof port === "number" ? port : 443,
    path: text(service.path),
  };
}

export function webhookEndpoint(clientConfig: unknown, resolveService: ServiceResolver): WebhookEndpoint {
  const config = isJsonObject(clientConfig) ? clientConfig : {};
  const caBundle = text(config.caBundle);
  const ca = caBundle === "" ? {} : { ca: Buffer.from(caBundle, "base64").toString("utf8") };
  if (isJsonObject(config.service)) {
    const service = serviceReference(config.service);
    return { url: new URL(resolveService(service)), serverName: `${service.name}.${service.namespace}.svc`, ...ca };
  }
  return { url: new URL(text(config.url)), ...ca };
}
