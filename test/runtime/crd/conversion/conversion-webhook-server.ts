// A local HTTPS conversion webhook for tests: its certificate (from its own CA) names 127.0.0.1, localhost
// and the service host `convert.webhooks.svc`; it records each ConversionReview and answers with the
// handler's reply. `renamingConverter` converts stable.example.com v1 <-> v2 by renaming spec.cronSpec to
// spec.schedule, as a real webhook would.
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import { afterEach } from "vitest";
import { createServingCertificates } from "../../../../runtime/http/certificates.js";
import type { ServiceEndpointResolver } from "../../../../runtime/http/service-resolver.js";

export interface Reply {
  status?: number;
  body?: unknown;
  /** Sent as is instead of `body`. */
  raw?: string;
  contentType?: string;
  delayMs?: number;
  /** Sends the headers and a first byte, then waits this long before the rest. */
  stallBodyMs?: number;
}

export interface Review {
  apiVersion: string;
  kind: string;
  request: { uid: string; desiredAPIVersion: string; objects: Record<string, unknown>[] };
  response?: unknown;
}

export interface ConversionWebhook {
  /** `https://127.0.0.1:<port>` */
  origin: string;
  port: number;
  caBundle: string;
  reviews: Review[];
  paths: string[];
  /** The Host header of each call. */
  hosts: string[];
}

/** The resolver for converters whose webhook is called by URL: a service lookup fails the call. */
export const noServices: ServiceEndpointResolver = (namespace, name) =>
  Promise.reject(new Error(`no service ${namespace}/${name} expected`));

const certificates = createServingCertificates({ dns: ["localhost", "convert.webhooks.svc"], ips: ["127.0.0.1"] });
const servers: (() => Promise<void>)[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((close) => close()));
});

export async function startConversionWebhook(handler: (review: Review) => Reply): Promise<ConversionWebhook> {
  const reviews: Review[] = [];
  const paths: string[] = [];
  const hosts: string[] = [];
  const server = createServer({ cert: certificates.cert, key: certificates.key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", async () => {
      const review = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Review;
      reviews.push(review);
      paths.push(req.url ?? "");
      hosts.push(req.headers.host ?? "");
      const reply = handler(review);
      if (reply.delayMs !== undefined) await new Promise((r) => setTimeout(r, reply.delayMs));
      if (res.destroyed) return;
      res.writeHead(reply.status ?? 200, { "content-type": reply.contentType ?? "application/json" });
      const body = reply.raw ?? JSON.stringify(reply.body);
      if (reply.stallBodyMs !== undefined) {
        res.write(body.slice(0, 1));
        await new Promise((r) => setTimeout(r, reply.stallBodyMs));
        if (res.destroyed) return;
      }
      res.end(reply.stallBodyMs === undefined ? body : body.slice(1));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const { port } = server.address() as AddressInfo;
  return {
    origin: `https://127.0.0.1:${port}`,
    port,
    caBundle: Buffer.from(certificates.caCert).toString("base64"),
    reviews,
    paths,
    hosts,
  };
}

function renamed(obj: Record<string, unknown>, desiredAPIVersion: string): Record<string, unknown> {
  const spec = { ...(obj.spec as Record<string, unknown>) };
  if (desiredAPIVersion.endsWith("/v2") && "cronSpec" in spec) {
    spec.schedule = spec.cronSpec;
    delete spec.cronSpec;
  }
  if (desiredAPIVersion.endsWith("/v1") && "schedule" in spec) {
    spec.cronSpec = spec.schedule;
    delete spec.schedule;
  }
  return { ...obj, apiVersion: desiredAPIVersion, spec };
}

/** A successful v1 answer built from the request; `edit` may spoil it for a test. */
export function renamingConverter(edit: (answer: Record<string, unknown>) => void = () => {}) {
  return (review: Review): Reply => {
    const answer: Record<string, unknown> = {
      apiVersion: review.apiVersion,
      kind: "ConversionReview",
      response: {
        uid: review.request.uid,
        convertedObjects: review.request.objects.map((o) => renamed(o, review.request.desiredAPIVersion)),
        result: { status: "Success" },
      },
    };
    edit(answer);
    return { body: answer };
  };
}
