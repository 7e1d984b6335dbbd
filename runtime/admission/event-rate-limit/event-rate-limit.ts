// kube-apiserver's EventRateLimit admission: creates and updates of core Events pass one token bucket per
// configured limit (server-wide, or per namespace, user or event source and involved object, the keyed ones
// kept in an LRU of cacheSize buckets); any limit out of tokens refuses the write with 429 TooManyRequests.
// Dry runs take no tokens.

import { aggregateMessage } from "../../errors/aggregate.js";
import { tooManyRequests } from "../../errors/status-error.js";
import { isJsonObject } from "../../object/json-object.js";
import type { AdmissionAttributes, AdmissionPlugin } from "../admission.js";
import type { AdmissionPluginContext } from "../plugin-context.js";
import { type Limit, type LimitType, loadEventRateLimitConfig } from "./event-rate-limit-config.js";
import { type Clock, TokenBucket } from "./token-bucket.js";

export const eventRateLimitPluginName = "EventRateLimit";

const defaultCacheSize = 4096;

export interface EventRateLimitOptions {
  /** The buckets' clock (milliseconds); Date.now unless a test drives time. */
  now?: Clock;
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** One string of the event's source and involved object, their fields joined without a separator as kube does. */
function sourceAndObjectKey(a: AdmissionAttributes): string {
  const event = a.object;
  if (event === undefined) return "";
  const source = isJsonObject(event.source) ? event.source : {};
  const involved = isJsonObject(event.involvedObject) ? event.involvedObject : {};
  return [
    source.component,
    source.host,
    involved.kind,
    involved.namespace,
    involved.name,
    involved.uid,
    involved.apiVersion,
  ]
    .map(text)
    .join("");
}

const keyOf: Record<LimitType, (a: AdmissionAttributes) => string> = {
  Server: () => "",
  Namespace: (a) => a.namespace ?? "",
  User: (a) => a.request?.user.name ?? "",
  SourceAndObject: sourceAndObjectKey,
};

/** One limit's buckets: a single one for Server, else the most recently used cacheSize keys. */
class LimitEnforcer {
  readonly #limit: Limit;
  readonly #now: Clock;
  readonly #buckets = new Map<string, TokenBucket>();
  readonly #capacity: number;

  constructor(limit: Limit, now: Clock) {
    this.#limit = limit;
    this.#now = now;
    this.#capacity = limit.type === "Server" ? 1 : limit.cacheSize === 0 ? defaultCacheSize : limit.cacheSize;
  }

  #bucket(key: string): TokenBucket {
    let bucket = this.#buckets.get(key);
    if (bucket !== undefined) {
      // Map keeps insertion order: re-inserting marks the key most recently used.
      this.#buckets.delete(key);
    } else {
      bucket = new TokenBucket(this.#limit.qps, this.#limit.burst, this.#now);
      if (this.#buckets.size >= this.#capacity) {
        const oldest = this.#buckets.keys().next().value as string;
        this.#buckets.delete(oldest);
      }
    }
    this.#buckets.set(key, bucket);
    return bucket;
  }

  /** Why the write is refused, or undefined when this limit lets it through. */
  refusal(a: AdmissionAttributes): string | undefined {
    const key = keyOf[this.#limit.type](a);
    if (this.#bucket(key).tryAccept()) return undefined;
    return `limit reached on type ${this.#limit.type} for key ${key}`;
  }
}

/** The plugin from its configuration; a missing or invalid configuration throws kube's startup error. */
export function eventRateLimit(context: AdmissionPluginContext, options: EventRateLimitOptions = {}): AdmissionPlugin {
  const now = options.now ?? Date.now;
  const enforcers = loadEventRateLimitConfig(context.config?.text).map((limit) => new LimitEnforcer(limit, now));
  return {
    name: eventRateLimitPluginName,
    validate(a) {
      if (a.operation !== "CREATE" && a.operation !== "UPDATE") return;
      // The request's kind: events.k8s.io Events are not limited, only core ones.
      if (a.kind.group !== "" || a.kind.kind !== "Event") return;
      if (a.dryRun) return;
      const refusals: string[] = [];
      for (const enforcer of enforcers) {
        const refusal = enforcer.refusal(a);
        if (refusal !== undefined) refusals.push(refusal);
      }
      if (refusals.length > 0) throw tooManyRequests(aggregateMessage(refusals));
    },
  };
}
