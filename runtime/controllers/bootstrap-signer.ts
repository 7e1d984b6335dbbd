// kube's bootstrapsigner (kube-controller-manager `bootstrap-signer-controller`, alias `bootstrapsigner`):
// the ConfigMap `cluster-info` in kube-public carries, next to its `kubeconfig`, one key
// `jws-kubeconfig-<token-id>` per bootstrap token that may sign (unexpired, `usage-bootstrap-signing:
// "true"`): a detached JWS over the kubeconfig, so that a joining client holding the token can trust it.
// Signatures of tokens that are gone, expired or no longer signing are removed. kapi has no kubeadm, so
// the controller also creates `cluster-info` (a kubeconfig with the server and its CA, no user) when it is
// missing.
//
// The JWS is computed with node:crypto rather than jose: it is one fixed header and one HMAC, and computing
// it synchronously lets the signatures be rebuilt inside the read-modify-write of updateWithRetry.
import { createHmac } from "node:crypto";
import { stringify } from "yaml";
import { namespaceTerminatingCause } from "../admission/namespace-lifecycle.js";
import {
  type BootstrapToken,
  bootstrapTokenNamespace,
  bootstrapTokenSecretType,
  expirationOf,
  signingTokenOf,
} from "../authn/bootstrap-token-secret.js";
import type { KubeObject } from "../object/kube-object.js";
import type { ResourceApi } from "../resources/resource-api.js";
import { hasStatusCause, statusCode, statusReason } from "./api-errors.js";
import type { ControllerContext } from "./controller-context.js";
import { configMaps, secrets } from "./core-kinds.js";
import { followObjects } from "./follow-objects.js";
import { updateWithRetry } from "./update-with-retry.js";
import { retryLater, WorkQueue } from "./work-queue.js";

export const clusterInfoNamespace = "kube-public";
export const clusterInfoName = "cluster-info";
export const kubeconfigKey = "kubeconfig";
export const signatureKeyPrefix = "jws-kubeconfig-";

/** setTimeout's longest delay; a later expiry is looked at again after it. */
const maxTimerMs = 2 ** 31 - 1;

/**
 * cluster-bootstrap's ComputeDetachedSignature: a compact HS256 JWS with header `{"alg":"HS256","kid":<id>}`
 * whose payload part is left out (`header..signature`). As kube, the key is the token's secret part (kube
 * zero-pads it to the 32 bytes go-jose wants; HMAC zero-pads short keys itself, so the MAC is the same).
 */
export function detachedSignature(content: string, token: BootstrapToken): string {
  const header = Buffer.from(JSON.stringify({ alg: "HS256", kid: token.id })).toString("base64url");
  const payload = Buffer.from(content).toString("base64url");
  const signature = createHmac("sha256", token.secret).update(`${header}.${payload}`).digest("base64url");
  return `${header}..${signature}`;
}

/** The kubeconfig kubeadm writes into cluster-info: one unnamed cluster, no user, no context. */
export function clusterInfoKubeconfig(server: string, caCert: string): string {
  const config = {
    apiVersion: "v1",
    clusters: [
      {
        cluster: { "certificate-authority-data": Buffer.from(caCert).toString("base64"), server },
        name: "",
      },
    ],
    contexts: null,
    "current-context": "",
    kind: "Config",
    preferences: {},
    users: null,
  };
  return stringify(config, { indentSeq: false, lineWidth: 0 });
}

/** Rewrites the signature keys of `data` for `tokens`; false when they are already so. */
function applySignatures(configMap: KubeObject, tokens: readonly BootstrapToken[]): boolean {
  const data = (configMap.data ?? {}) as Record<string, string>;
  const content = data[kubeconfigKey];
  if (content === undefined) return false;
  const wanted = new Map(
    tokens.map((token) => [`${signatureKeyPrefix}${token.id}`, detachedSignature(content, token)]),
  );
  const present = Object.keys(data).filter((key) => key.startsWith(signatureKeyPrefix));
  const unchanged = present.length === wanted.size && present.every((key) => wanted.get(key) === data[key]);
  if (unchanged) return false;
  for (const key of present) delete data[key];
  for (const [key, signature] of wanted) data[key] = signature;
  configMap.data = data;
  return true;
}

export interface BootstrapSignerOptions {
  /** The API server's URL as clients reach it, written into a `cluster-info` the controller creates. */
  server: string;
  /** PEM of the CA that signed the serving certificate (the kubeconfig's certificate-authority-data). */
  caCert: string;
  now?: () => Date;
}

export class BootstrapSigner {
  private readonly queue: WorkQueue<string>;
  private readonly now: () => Date;
  private expiryTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly api: ResourceApi,
    private readonly options: BootstrapSignerOptions,
    private readonly context: ControllerContext,
  ) {
    this.now = options.now ?? (() => new Date());
    this.queue = new WorkQueue(() => this.sync(), { name: "bootstrap signer", log: context.log });
  }

  async run(): Promise<void> {
    const follow = { ...this.context, name: "bootstrap signer" };
    const poke = () => this.queue.add(clusterInfoName);
    // A missing cluster-info and no token give no event: the first look is not waited for.
    poke();
    await Promise.all([
      followObjects(this.api, { kind: configMaps, namespace: clusterInfoNamespace }, poke, {
        ...follow,
        query: { fieldSelector: `metadata.name=${clusterInfoName}` },
      }),
      followObjects(this.api, { kind: secrets, namespace: bootstrapTokenNamespace }, poke, {
        ...follow,
        query: { fieldSelector: `type=${bootstrapTokenSecretType}` },
      }),
    ]);
    clearTimeout(this.expiryTimer);
    await this.queue.stop();
  }

  private async sync(): Promise<typeof retryLater | undefined> {
    const target = { kind: configMaps, namespace: clusterInfoNamespace, name: clusterInfoName };
    try {
      await this.api.get(target);
    } catch (error) {
      if (statusCode(error) !== 404) throw error;
      return this.createClusterInfo();
    }
    const tokens = await this.signingTokens();
    await updateWithRetry(this.api, target, (configMap) => applySignatures(configMap, tokens));
    return undefined;
  }

  /** The tokens that may sign now; the earliest of their expiries brings the controller back. */
  private async signingTokens(): Promise<BootstrapToken[]> {
    const now = this.now();
    const { items } = await this.api.list(
      { kind: secrets, namespace: bootstrapTokenNamespace },
      { fieldSelector: `type=${bootstrapTokenSecretType}` },
    );
    const tokens = new Map<string, BootstrapToken>();
    let nextExpiryMs: number | undefined;
    for (const { object } of items) {
      const token = signingTokenOf(object, now);
      // Two Secrets cannot share a token id (it is their name); kube keeps the first all the same.
      if (token === undefined || tokens.has(token.id)) continue;
      tokens.set(token.id, token);
      const { remainingMs } = expirationOf(object, now);
      if (remainingMs !== undefined) nextExpiryMs = Math.min(nextExpiryMs ?? remainingMs, remainingMs);
    }
    this.scheduleExpiry(nextExpiryMs);
    return [...tokens.values()];
  }

  private scheduleExpiry(delayMs: number | undefined): void {
    clearTimeout(this.expiryTimer);
    this.expiryTimer = undefined;
    if (delayMs === undefined || this.context.signal.aborted) return;
    this.expiryTimer = setTimeout(() => this.queue.add(clusterInfoName), Math.min(delayMs, maxTimerMs));
    this.expiryTimer.unref();
  }

  private async createClusterInfo(): Promise<typeof retryLater | undefined> {
    try {
      await this.api.create(
        { kind: configMaps, namespace: clusterInfoNamespace },
        {
          apiVersion: "v1",
          kind: "ConfigMap",
          metadata: { name: clusterInfoName, namespace: clusterInfoNamespace },
          data: { [kubeconfigKey]: clusterInfoKubeconfig(this.options.server, this.options.caCert) },
        },
      );
    } catch (error) {
      // kube-public not created yet: come back once it may be.
      if (statusCode(error) === 404) return retryLater;
      const ignored = statusReason(error) === "AlreadyExists" || hasStatusCause(error, namespaceTerminatingCause);
      if (!ignored) throw error;
    }
    return undefined;
  }
}
