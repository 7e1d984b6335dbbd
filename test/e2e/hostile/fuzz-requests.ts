// The fuzzer: from a seeded generator, one hostile request after another across every input class (raw
// framing, paths, methods, query values, headers, JSON, YAML and protobuf bodies, every patch type, apply),
// sent as the admin or as nobody, at the kinds of the corpus in one namespace.
import { collectionPath, crdGroup, type Json, type Kind, kinds, readPaths, reviewBodies } from "./corpus.js";
import { type HeaderFamily, hostileHeaders } from "./header-values.js";
import type { Credential, HostileRequest, HttpRequest } from "./hostile-request.js";
import { renderJson } from "./hostile-values.js";
import { hostileJsonBody, mutateValueMany } from "./mutate-json.js";
import { hostilePatchBody, type PatchType, patchContentTypes } from "./patch-bodies.js";
import { hostilePath } from "./path-values.js";
import type { Prng } from "./prng.js";
import { hostileProtobufBody } from "./protobuf-bodies.js";
import { hostileQuery, queryParameterNames } from "./query-values.js";
import { hostileRawRequest } from "./raw-requests.js";
import { aliasBomb, hostileYamlDocument, hostileYamlObject } from "./yaml-bodies.js";

export interface FuzzOptions {
  /** The namespace every namespaced object lives in. */
  namespace: string;
  /** Add `dryRun=All` to every write, so a run against a shared server stores nothing. */
  dryRun?: boolean;
}

export const inputClasses = [
  "raw",
  "path",
  "method",
  "query",
  "header",
  "json",
  "yaml",
  "protobuf",
  "patch",
  "apply",
  "review",
] as const;

export type InputClass = (typeof inputClasses)[number];

/** How often each class comes up, out of their sum. */
const weights: Record<InputClass, number> = {
  raw: 10,
  path: 7,
  method: 4,
  query: 15,
  header: 10,
  json: 14,
  yaml: 9,
  protobuf: 6,
  patch: 14,
  apply: 7,
  review: 4,
};

function pickClass(prng: Prng): InputClass {
  let roll = prng.int(Object.values(weights).reduce((a, b) => a + b, 0));
  for (const c of inputClasses) {
    roll -= weights[c];
    if (roll < 0) return c;
  }
  return "query";
}

const writeMethods = new Set(["POST", "PUT", "PATCH", "DELETE"]);
/** Custom resources have no protobuf form: kube refuses such bodies with 415 before reading them. */
const protobufKinds = kinds.filter((k) => !k.collection.includes(crdGroup));

export class FuzzRequests {
  private serial = 0;

  constructor(
    private readonly prng: Prng,
    private readonly options: FuzzOptions,
  ) {}

  /** The request that creates `kind`'s seed object, valid and untouched. */
  seedRequest(kind: Kind): HttpRequest {
    const ns = this.options.namespace;
    return this.http("seed", "POST", collectionPath(kind, ns), {
      headers: { "Content-Type": "application/json" },
      body: Buffer.from(renderJson(kind.object(ns, kind.seedName))),
      as: "admin",
    });
  }

  next(): HostileRequest {
    const inputClass = pickClass(this.prng);
    return inputClass === "raw" ? hostileRawRequest(this.prng) : this.build(inputClass);
  }

  private credential(): Credential {
    return this.prng.chance(0.85) ? "admin" : "anonymous";
  }

  private kind(): Kind {
    return this.prng.pick(kinds);
  }

  private itemPath(kind: Kind): string {
    return `${collectionPath(kind, this.options.namespace)}/${kind.seedName}`;
  }

  private freshName(): string {
    this.serial++;
    return `h4-f${this.serial}`;
  }

  private http(
    inputClass: string,
    method: string,
    path: string,
    parts: { headers?: Record<string, string | string[]>; body?: Buffer; as?: Credential } = {},
  ): HttpRequest {
    let full = path;
    if (this.options.dryRun && writeMethods.has(method)) {
      // Before any fragment, where the server reads it as part of the query.
      const hash = full.indexOf("#");
      const [head, fragment] = hash < 0 ? [full, ""] : [full.slice(0, hash), full.slice(hash)];
      full = `${head}${head.includes("?") ? "&" : "?"}dryRun=All${fragment}`;
    }
    return {
      kind: "http",
      inputClass,
      method,
      path: full,
      headers: parts.headers ?? {},
      ...(parts.body === undefined ? {} : { body: parts.body }),
      as: parts.as ?? this.credential(),
    };
  }

  private build(inputClass: Exclude<InputClass, "raw">): HttpRequest {
    const prng = this.prng;
    const kind = this.kind();
    const ns = this.options.namespace;
    switch (inputClass) {
      case "path":
        return this.http(
          "path",
          prng.pick(["GET", "GET", "POST", "PUT", "DELETE", "PATCH"]),
          hostilePath(prng, kind, ns),
          {
            headers: { "Content-Type": "application/json" },
            body: Buffer.from(renderJson(kind.object(ns, kind.seedName))),
          },
        );
      case "method": {
        const method = prng.pick(["HEAD", "OPTIONS", "TRACE", "PROPFIND", "PURGE", "LINK", "CONNECT", "DELETE", "PUT"]);
        const path = prng.pick([collectionPath(kind, ns), this.itemPath(kind), prng.pick(readPaths)]);
        return this.http(`method:${method}`, method, path);
      }
      case "query": {
        const focus = prng.pick(queryParameterNames);
        const path = prng.chance(0.3)
          ? prng.pick(readPaths)
          : prng.chance(0.7)
            ? collectionPath(kind, ns)
            : this.itemPath(kind);
        const method = prng.chance(0.8) ? "GET" : prng.pick(["DELETE", "POST", "PUT"]);
        return this.http(`query:${focus}`, method, `${path}${hostileQuery(prng, focus)}`, {
          headers: { "Content-Type": "application/json" },
          ...(method === "GET" || method === "DELETE"
            ? {}
            : { body: Buffer.from(renderJson(kind.object(ns, this.freshName()))) }),
        });
      }
      case "header": {
        const family = prng.pick<HeaderFamily>([
          "accept",
          "accept",
          "content-type",
          "authorization",
          "impersonation",
          "other",
        ]);
        const read = prng.chance(0.5);
        const path = read
          ? prng.pick([collectionPath(kind, ns), this.itemPath(kind), ...readPaths])
          : collectionPath(kind, ns);
        const query = read && prng.chance(0.2) ? "?watch=1&timeoutSeconds=1" : "";
        return this.http(`header:${family}`, read ? "GET" : "POST", `${path}${query}`, {
          headers: { "Content-Type": "application/json", ...hostileHeaders(prng, family) },
          ...(read ? {} : { body: Buffer.from(renderJson(kind.object(ns, this.freshName()))) }),
          // A hostile Authorization header is the credential; nothing is added to it.
          ...(family === "authorization" ? { as: "anonymous" as const } : {}),
        });
      }
      case "json":
        return this.bodyRequest("json", kind, "application/json", (valid) => hostileJsonBody(prng, valid));
      case "yaml":
        return this.bodyRequest("yaml", kind, "application/yaml", (valid) =>
          Buffer.from(prng.chance(0.3) ? hostileYamlDocument(prng) : hostileYamlObject(prng, valid)),
        );
      case "protobuf": {
        const target = prng.chance(0.85) ? prng.pick(protobufKinds) : kind;
        return this.bodyRequest("protobuf", target, "application/vnd.kubernetes.protobuf", (valid) =>
          hostileProtobufBody(prng, valid),
        );
      }
      case "patch": {
        const type = prng.pick<PatchType>(["json", "merge", "strategic"]);
        return this.patchRequest(kind, type);
      }
      case "apply":
        return this.patchRequest(kind, "apply");
      case "review": {
        const review = prng.pick(reviewBodies);
        const body = prng.chance(0.15)
          ? Buffer.from(prng.chance(0.5) ? aliasBomb(9, 9) : '{"a":'.repeat(prng.size([1000], [100_000])))
          : hostileJsonBody(prng, review.body);
        const nobody = prng.chance(0.2) ? { "Impersonate-User": "h4-nobody" } : {};
        return this.http("review", "POST", review.path, {
          headers: { "Content-Type": prng.pick(["application/json", "application/yaml"]), ...nobody },
          body,
        });
      }
    }
  }

  /** A create, update or delete carrying a hostile body, sometimes with hostile write parameters too. */
  private bodyRequest(inputClass: string, kind: Kind, contentType: string, body: (valid: Json) => Buffer): HttpRequest {
    const prng = this.prng;
    const ns = this.options.namespace;
    const query = prng.chance(0.2) ? hostileQuery(prng, prng.pick(["fieldValidation", "dryRun", "fieldManager"])) : "";
    switch (prng.int(6)) {
      case 0:
      case 1:
        return this.http(`${inputClass}:update`, "PUT", `${this.itemPath(kind)}${query}`, {
          headers: { "Content-Type": contentType },
          body: body(kind.object(ns, kind.seedName)),
        });
      case 2: {
        const options: Json = {
          apiVersion: "v1",
          kind: "DeleteOptions",
          propagationPolicy: "Background",
          gracePeriodSeconds: 0,
          preconditions: { uid: "x", resourceVersion: "1" },
          dryRun: ["All"],
        };
        return this.http(`${inputClass}:delete`, "DELETE", `${this.itemPath(kind)}${query}`, {
          headers: { "Content-Type": contentType },
          body:
            contentType === "application/json"
              ? body(options)
              : Buffer.from(renderJson(mutateValueMany(prng, options))),
        });
      }
      default:
        return this.http(`${inputClass}:create`, "POST", `${collectionPath(kind, ns)}${query}`, {
          headers: { "Content-Type": contentType },
          body: body(kind.object(ns, this.freshName())),
        });
    }
  }

  private patchRequest(kind: Kind, type: PatchType): HttpRequest {
    const prng = this.prng;
    const ns = this.options.namespace;
    const subresource = prng.chance(0.15) ? prng.pick(["/status", "/scale"]) : "";
    const manager = type === "apply" && prng.chance(0.9) ? "fieldManager=h4-fuzz" : "";
    const force = prng.chance(0.2) ? `force=${prng.pick(["true", "false", "x"])}` : "";
    const extra = prng.chance(0.2) ? hostileQuery(prng).slice(1) : "";
    const query = [manager, force, extra].filter((q) => q !== "").join("&");
    const name = type === "apply" && prng.chance(0.3) ? this.freshName() : kind.seedName;
    return this.http(
      `${type === "apply" ? "apply" : `patch:${type}`}`,
      "PATCH",
      `${collectionPath(kind, ns)}/${name}${subresource}${query === "" ? "" : `?${query}`}`,
      {
        headers: {
          "Content-Type": prng.chance(0.95) ? patchContentTypes[type] : prng.pick(Object.values(patchContentTypes)),
        },
        body: hostilePatchBody(prng, type, kind.object(ns, name)),
      },
    );
  }
}
