// Where a CRD's conversion webhook is called: its clientConfig names either a URL or a service, as
// apiextensions.k8s.io/v1 WebhookClientConfig does. A service is called as `https://<name>.<namespace>.svc`
// on its port (443 unless given) and path, its certificate must name that host, and the connection goes to
// the address the service resolver finds when the call is made (kube's client manager resolves at dial
// time); `caBundle` (base64 PEM) replaces the system roots when set.
import { isJsonObject, type JsonObject } from "../../object/json-object.js";

export interface ServiceReference {
  namespace: string;
  name: string;
  port: number;
  /** `<name>.<namespace>.svc:<port>` as Go prints the URL's host and sends the Host header (443 included). */
  hostPort: string;
}

export interface WebhookEndpoint {
  url: URL;
  /** PEM of the CAs to trust; undefined trusts the system roots. */
  ca?: string;
  /** The name the serving certificate must carry, when it is not the URL's host. */
  serverName?: string;
  /** Set for a service reference: resolved to an endpoint address on every call. */
  service?: ServiceReference;
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function serviceEndpoint(service: JsonObject): WebhookEndpoint {
  const namespace = text(service.namespace);
  const name = text(service.name);
  const port = typeof service.port === "number" ? service.port : 443;
  const serverName = `${name}.${namespace}.svc`;
  const hostPort = `${serverName}:${port}`;
  return {
    url: new URL(`https://${hostPort}${text(service.path)}`),
    serverName,
    service: { namespace, name, port, hostPort },
  };
}

export function webhookEndpoint(clientConfig: unknown): WebhookEndpoint {
  const config = isJsonObject(clientConfig) ? clientConfig : {};
  const caBundle = text(config.caBundle);
  const ca = caBundle === "" ? {} : { ca: Buffer.from(caBundle, "base64").toString("utf8") };
  const endpoint = isJsonObject(config.service) ? serviceEndpoint(config.service) : { url: new URL(text(config.url)) };
  return { ...endpoint, ...ca };
}
