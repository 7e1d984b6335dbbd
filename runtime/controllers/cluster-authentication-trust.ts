// kube-apiserver's cluster authentication trust controller: the ConfigMap kube-system/extension-apiserver-
// authentication tells extension API servers how this server authenticates clients: `client-ca-file` (the CAs
// client certificates are verified against) and, with --requestheader-client-ca-file, the front proxy's CA,
// allowed names and headers (`requestheader-*`, the lists as JSON). As kube's, the controller only adds: what
// the ConfigMap already holds is kept (CAs expired for more than five minutes are dropped, duplicates removed)
// and this server's settings are merged in. It acts when the ConfigMap is made or deleted and checks it once
// a minute, so an edit that drops something is undone within a minute.
import type { X509Certificate } from "node:crypto";
import { readFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { CertificatePool } from "../authn/certificate-pool.js";
import type { RequestHeaderOptions } from "../authn/request-header.js";
import type { KubeObject } from "../object/kube-object.js";
import type { ResourceApi } from "../resources/resource-api.js";
import { statusCode } from "./api-errors.js";
import type { ControllerContext } from "./controller-context.js";
import { configMaps, namespaces } from "./core-kinds.js";
import { followObjects } from "./follow-objects.js";
import { createNamespaceIfMissing } from "./system-namespaces.js";
import { retryLater, WorkQueue } from "./work-queue.js";

const namespace = "kube-system";
const name = "extension-apiserver-authentication";
/** Expired certificates are dropped five minutes after they expire. */
const expirySlackMs = 5 * 60_000;

/** What this server trusts, as the ConfigMap publishes it. */
export interface ClusterAuthenticationInfo {
  /** PEM: the CAs client certificates are verified against. */
  clientCa?: string;
  /** The front proxy's CA (PEM) and the headers and names it is trusted with. */
  requestHeader?: {
    clientCa: string;
    allowedNames: readonly string[];
    usernameHeaders: readonly string[];
    uidHeaders: readonly string[];
    groupHeaders: readonly string[];
    extraHeadersPrefix: readonly string[];
  };
}

/**
 * The info of kube-apiserver's authentication flags: the client CAs (`--client-ca-file`'s, then `caCert`, the
 * CA kapi's own client certificates come from) and the `--requestheader-*` settings.
 */
export function clusterAuthenticationInfo(
  flags: { clientCaFile?: string; requestHeader?: RequestHeaderOptions },
  caCert: string | undefined,
): ClusterAuthenticationInfo {
  const clientCas = [
    ...(flags.clientCaFile === undefined ? [] : [readFileSync(flags.clientCaFile, "utf8")]),
    ...(caCert === undefined ? [] : [caCert]),
  ];
  const proxy = flags.requestHeader;
  return {
    ...(clientCas.length === 0 ? {} : { clientCa: clientCas.join("\n") }),
    ...(proxy === undefined
      ? {}
      : {
          requestHeader: {
            clientCa: readFileSync(proxy.clientCaFile, "utf8"),
            allowedNames: proxy.allowedNames ?? [],
            usernameHeaders: proxy.usernameHeaders ?? [],
            uidHeaders: proxy.uidHeaders ?? [],
            groupHeaders: proxy.groupHeaders ?? [],
            extraHeadersPrefix: proxy.extraHeadersPrefix ?? [],
          },
        }),
  };
}

export interface ClusterAuthenticationTrustOptions {
  /** RemoteRequestHeaderUID (default on): `requestheader-uid-headers` is published when there are any. */
  uidHeaders?: boolean;
  /** How often the ConfigMap is checked besides its creation and deletion; default a minute, as kube's. */
  resyncMs?: number;
}

function certificates(pem: string | undefined): X509Certificate[] {
  if (pem === undefined || pem === "") return [];
  return [...CertificatePool.fromPem(pem).certificates];
}

/** kube's combineCertLists: both lists, expired ones out, duplicates out, as PEM; undefined when none is left. */
function combinedCas(existing: string | undefined, required: string | undefined): string | undefined {
  const oldest = Date.now() - expirySlackMs;
  const kept: X509Certificate[] = [];
  for (const cert of [...certificates(existing), ...certificates(required)]) {
    if (new Date(cert.validTo).getTime() <= oldest) continue;
    if (!kept.some((k) => k.raw.equals(cert.raw))) kept.push(cert);
  }
  return kept.length === 0 ? undefined : kept.map((cert) => cert.toString()).join("");
}

function stringList(data: Record<string, string>, key: string): string[] {
  const text = data[key] ?? "";
  if (text === "") return [];
  const parsed: unknown = JSON.parse(text);
  if (parsed === null) return [];
  if (!Array.isArray(parsed) || parsed.some((v) => typeof v !== "string")) {
    throw new Error(`${key}: not a JSON list of strings`);
  }
  return parsed as string[];
}

function combinedList(existing: readonly string[], required: readonly string[]): string {
  return JSON.stringify([...new Set([...existing, ...required])]);
}

/** The ConfigMap's data: what it holds merged with what this server requires. */
export function authenticationData(
  existing: Record<string, string>,
  info: ClusterAuthenticationInfo,
  uidHeaders: boolean,
): Record<string, string> {
  const data: Record<string, string> = {};
  const clientCa = combinedCas(existing["client-ca-file"], info.clientCa);
  if (clientCa !== undefined) data["client-ca-file"] = clientCa;
  const proxyCa = combinedCas(existing["requestheader-client-ca-file"], info.requestHeader?.clientCa);
  if (proxyCa === undefined) return data;
  const required = info.requestHeader;
  const list = (key: string, values: readonly string[] = []) => combinedList(stringList(existing, key), values);
  data["requestheader-username-headers"] = list("requestheader-username-headers", required?.usernameHeaders);
  if (uidHeaders) {
    const uid = [...new Set([...stringList(existing, "requestheader-uid-headers"), ...(required?.uidHeaders ?? [])])];
    if (uid.length > 0) data["requestheader-uid-headers"] = JSON.stringify(uid);
  }
  data["requestheader-group-headers"] = list("requestheader-group-headers", required?.groupHeaders);
  data["requestheader-extra-headers-prefix"] = list("requestheader-extra-headers-prefix", required?.extraHeadersPrefix);
  data["requestheader-client-ca-file"] = proxyCa;
  data["requestheader-allowed-names"] = list("requestheader-allowed-names", required?.allowedNames);
  return data;
}

export class ClusterAuthenticationTrust {
  private readonly queue: WorkQueue<string>;
  private readonly uidHeaders: boolean;
  private readonly resyncMs: number;
  private firstSync: Promise<void> | undefined;

  constructor(
    private readonly api: ResourceApi,
    private readonly info: ClusterAuthenticationInfo,
    private readonly context: ControllerContext,
    options: ClusterAuthenticationTrustOptions = {},
  ) {
    this.uidHeaders = options.uidHeaders ?? true;
    this.resyncMs = options.resyncMs ?? 60_000;
    this.queue = new WorkQueue(() => this.sync(), {
      name: "cluster authentication trust controller",
      log: context.log,
    });
  }

  /** Resolves once the ConfigMap was first written (or the attempt failed, and is retried). */
  started(): Promise<void> {
    this.firstSync ??= this.sync().then(
      (outcome) => {
        if (outcome === retryLater) this.queue.addRateLimited(name);
      },
      (error: unknown) => {
        this.context.log("cluster authentication trust controller: writing the ConfigMap failed", error);
        this.queue.addRateLimited(name);
      },
    );
    return this.firstSync;
  }

  async run(): Promise<void> {
    await this.started();
    const resync = setInterval(() => this.queue.add(name), this.resyncMs);
    try {
      await followObjects(
        this.api,
        { kind: configMaps, namespace },
        (event) => {
          if (event.type !== "MODIFIED") this.queue.add(name);
        },
        {
          ...this.context,
          name: "cluster authentication trust controller",
          query: { fieldSelector: `metadata.name=${name}` },
        },
      );
    } finally {
      clearInterval(resync);
    }
    await this.queue.stop();
  }

  private async sync(): Promise<typeof retryLater | undefined> {
    const target = { kind: configMaps, namespace, name };
    let current: KubeObject | undefined;
    try {
      current = (await this.api.get(target)).object;
    } catch (error) {
      if (statusCode(error) !== 404) throw error;
    }
    const existing = ((current?.data ?? {}) as Record<string, string>) ?? {};
    const data = authenticationData(existing, this.info, this.uidHeaders);
    if (current !== undefined && isDeepStrictEqual(current.data ?? {}, data)) return undefined;
    try {
      if (current === undefined) {
        await this.ensureNamespace();
        await this.api.create(
          { kind: configMaps, namespace },
          { apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace }, data },
        );
      } else {
        await this.api.update(target, { ...structuredClone(current), data });
      }
    } catch (error) {
      // Made, changed or deleted in the meantime: look again.
      const code = statusCode(error);
      if (code === 409 || code === 404) return retryLater;
      throw error;
    }
    return undefined;
  }

  private async ensureNamespace(): Promise<void> {
    try {
      await this.api.get({ kind: namespaces, name: namespace });
      return;
    } catch (error) {
      if (statusCode(error) !== 404) throw error;
    }
    await createNamespaceIfMissing(this.api, namespace);
  }
}
