// kube-apiserver's identity: a Lease `apiserver-<hash of the hostname>` in kube-system, labelled
// `apiserver.kubernetes.io/identity: kube-apiserver` and `kubernetes.io/hostname`, held as
// `<name>_<uuid>` for 3600 s and renewed every 10 s (created again when deleted). At start the lease of an
// earlier run is deleted, at stop this one. The garbage collector deletes, once an hour, every
// kube-apiserver identity Lease whose renewTime plus duration has passed.
import { createHash, randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { KubeObject } from "../object/kube-object.js";
import type { ResourceApi } from "../resources/resource-api.js";
import { statusCode } from "./api-errors.js";
import { apiserverOwner, leases, pause } from "./apiserver-kinds.js";
import type { ControllerContext } from "./controller-context.js";

const namespace = "kube-system";
const identityLabel = "apiserver.kubernetes.io/identity";
const identity = "kube-apiserver";
const hostnameLabel = "kubernetes.io/hostname";
/** client-go's lease controller tries an update this many times before it looks the lease up again. */
const updateAttempts = 5;

function lengthPrefixed(text: string): Buffer {
  const bytes = Buffer.from(text);
  const length = Buffer.alloc(2);
  length.writeUInt16BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

/** RFC 4648 base32 without padding, lower case. */
function base32(bytes: Uint8Array): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyz234567";
  let out = "";
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = ((value << 8) | byte) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out;
}

/** kube's APIServerID: `apiserver-` and the base32 of the first 16 bytes of sha256(hostname, "kube-apiserver"). */
export function apiserverId(host: string): string {
  const hash = createHash("sha256")
    .update(Buffer.concat([lengthPrefixed(host), lengthPrefixed(identity)]))
    .digest();
  return `apiserver-${base32(hash.subarray(0, 16))}`;
}

/** metav1.MicroTime: RFC 3339 with microseconds. */
function microTime(date: Date): string {
  return date.toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");
}

export interface IdentityLeaseOptions {
  /** Default the machine's hostname. */
  hostname?: string;
  /** Default 10 s, jittered by up to 4 %. */
  renewIntervalMs?: number;
  /** Default 3600. */
  leaseDurationSeconds?: number;
  /** How often expired leases are collected; default 1 hour. */
  gcPeriodMs?: number;
  now?: () => Date;
}

export class ApiserverIdentityLease {
  readonly name: string;
  readonly holderIdentity: string;
  private readonly host: string;
  private readonly renewIntervalMs: number;
  private readonly durationSeconds: number;
  private readonly gcPeriodMs: number;
  private readonly now: () => Date;
  private latest: KubeObject | undefined;

  constructor(
    private readonly api: ResourceApi,
    private readonly context: ControllerContext,
    options: IdentityLeaseOptions = {},
  ) {
    this.host = options.hostname ?? hostname();
    this.name = apiserverId(this.host);
    this.holderIdentity = `${this.name}_${randomUUID()}`;
    this.renewIntervalMs = options.renewIntervalMs ?? 10_000;
    this.durationSeconds = options.leaseDurationSeconds ?? 3600;
    this.gcPeriodMs = options.gcPeriodMs ?? 3600_000;
    this.now = options.now ?? (() => new Date());
  }

  /** The start-kube-apiserver-identity-lease-controller hook: the lease of an earlier run is gone. */
  async start(): Promise<void> {
    await this.deleteOwn();
  }

  /** Renews until the signal aborts, then deletes the lease. */
  async renew(): Promise<void> {
    const { signal } = this.context;
    while (!signal.aborted) {
      try {
        await this.sync();
      } catch (error) {
        if (!signal.aborted) this.context.log("apiserver identity lease: renewing failed", error);
      }
      await pause(this.renewIntervalMs * (1 + Math.random() * 0.04), signal);
    }
    await this.deleteOwn();
  }

  /** The garbage collector: a round at once, then one per period, until the signal aborts. */
  async collect(): Promise<void> {
    const { signal } = this.context;
    while (!signal.aborted) {
      try {
        await this.collectExpired();
      } catch (error) {
        if (!signal.aborted) this.context.log("apiserver lease garbage collector: collecting failed", error);
      }
      await pause(this.gcPeriodMs, signal);
    }
  }

  private async deleteOwn(): Promise<void> {
    try {
      await this.api.delete({ kind: leases, namespace, name: this.name });
    } catch (error) {
      if (statusCode(error) !== 404) this.context.log("apiserver identity lease: deleting the old lease failed", error);
    }
  }

  private async sync(): Promise<void> {
    if (this.latest !== undefined && (await this.update(this.latest))) return;
    const current = await this.ensure();
    if (current !== undefined) await this.update(current);
  }

  /** The lease, created when missing (undefined then: creating it renewed it). */
  private async ensure(): Promise<KubeObject | undefined> {
    try {
      return (await this.api.get({ kind: leases, namespace, name: this.name })).object;
    } catch (error) {
      if (statusCode(error) !== 404) throw error;
    }
    this.latest = await this.api.create({ kind: leases, namespace }, this.renewed(undefined), {
      owner: apiserverOwner,
    });
    return undefined;
  }

  /** True once renewed; false when the lease changed or went away underneath. */
  private async update(base: KubeObject): Promise<boolean> {
    let current = base;
    for (let attempt = 0; attempt < updateAttempts; attempt++) {
      try {
        const written = await this.api.update({ kind: leases, namespace, name: this.name }, this.renewed(current), {
          owner: apiserverOwner,
        });
        this.latest = written.object;
        return true;
      } catch (error) {
        const code = statusCode(error);
        if (code === 404) return false;
        if (code !== 409) throw error;
        const fresh = await this.ensure();
        if (fresh === undefined) return true;
        current = fresh;
      }
    }
    return false;
  }

  private renewed(base: KubeObject | undefined): KubeObject {
    const lease: KubeObject = base
      ? structuredClone(base)
      : {
          apiVersion: "coordination.k8s.io/v1",
          kind: "Lease",
          metadata: { name: this.name, namespace },
          spec: { holderIdentity: this.holderIdentity },
        };
    const spec = lease.spec as Record<string, unknown>;
    spec.leaseDurationSeconds = this.durationSeconds;
    spec.renewTime = microTime(this.now());
    const metadata = lease.metadata as { labels?: Record<string, string> };
    metadata.labels = { ...metadata.labels, [identityLabel]: identity, [hostnameLabel]: this.host };
    return lease;
  }

  private async collectExpired(): Promise<void> {
    const selected = await this.api.list(
      { kind: leases, namespace },
      { labelSelector: `${identityLabel}=${identity}` },
    );
    for (const { object } of selected.items) {
      const name = (object.metadata as { name: string }).name;
      if (!this.expired(object)) continue;
      try {
        const current = (await this.api.get({ kind: leases, namespace, name })).object;
        if (!this.expired(current)) continue;
        await this.api.delete({ kind: leases, namespace, name });
      } catch (error) {
        if (statusCode(error) !== 404) throw error;
      }
    }
  }

  private expired(lease: KubeObject): boolean {
    const spec = lease.spec as { renewTime?: string | null; leaseDurationSeconds?: number | null } | undefined;
    if (!spec?.renewTime || spec.leaseDurationSeconds === undefined || spec.leaseDurationSeconds === null) return true;
    return Date.parse(spec.renewTime) + spec.leaseDurationSeconds * 1000 < this.now().getTime();
  }
}
