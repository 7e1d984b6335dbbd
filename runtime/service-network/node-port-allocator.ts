// Node ports in use, kept as kube keeps them: one bitmap over the port range in a RangeAllocation record at
// `/registry/ranges/servicenodeports`, written with compare-and-swap, so allocations survive a restart on a
// persistent store. Dynamic allocation picks at random, from the upper part of the range first (the lower
// band is kept for ports clients ask for, as kube's static subrange).
import { ConflictError, KeyExistsError, NotFoundError } from "../storage/storage-errors.js";
import type { Store } from "../storage/store.js";
import { formatPortRange, type PortRange } from "./service-network-config.js";

export const nodePortRecordKey = "/registry/ranges/servicenodeports";

export class PortNotInRangeError extends Error {
  constructor(range: PortRange) {
    super(`provided port is not in the valid range. The range of valid ports is ${formatPortRange(range)}`);
  }
}
export const portAllocatedMessage = "provided port is already allocated";
export const rangeFullMessage = "range is full";

/** kube's port calculateRangeOffset: min(max(16, size/32), 128), 0 for ranges of 16 ports or fewer. */
function lowerBandSize(size: number): number {
  if (size <= 16) return 0;
  return Math.min(Math.max(16, Math.floor(size / 32)), 128);
}

function randomInt(below: number): number {
  return Math.floor(Math.random() * below);
}

interface Bitmap {
  bits: Uint8Array;
  modRevision: number | undefined;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class NodePortAllocator {
  #queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: Store,
    readonly range: PortRange,
  ) {}

  contains(port: number): boolean {
    return port >= this.range.base && port < this.range.base + this.range.size;
  }

  async has(port: number): Promise<boolean> {
    if (!this.contains(port)) return false;
    const { bits } = await this.#read();
    return isSet(bits, port - this.range.base);
  }

  /** Marks `port` used; throws PortNotInRangeError, or an Error with kube's "already allocated" text. */
  allocate(port: number): Promise<void> {
    if (!this.contains(port)) return Promise.reject(new PortNotInRangeError(this.range));
    return this.#change((bits) => {
      const offset = port - this.range.base;
      if (isSet(bits, offset)) throw new Error(portAllocatedMessage);
      setBit(bits, offset, true);
      return undefined;
    });
  }

  /** A free port at random, marked used; an Error "range is full" when none is left. */
  allocateNext(): Promise<number> {
    return this.#change((bits) => {
      const size = this.range.size;
      const band = lowerBandSize(size);
      const pick = (from: number, count: number): number | undefined => {
        const start = randomInt(count);
        for (let i = 0; i < count; i++) {
          const at = from + ((start + i) % count);
          if (!isSet(bits, at)) return at;
        }
        return undefined;
      };
      const offset = pick(band, size - band) ?? (band > 0 ? pick(0, band) : undefined);
      if (offset === undefined) throw new Error(rangeFullMessage);
      setBit(bits, offset, true);
      return this.range.base + offset;
    });
  }

  /** Frees `port`; a port outside the range or not in use is left alone. */
  async release(port: number): Promise<void> {
    if (!this.contains(port)) return;
    await this.#change((bits) => {
      setBit(bits, port - this.range.base, false);
      return undefined;
    });
  }

  /** Rewrites the record with the ports `keep` picks from those in use, with no allocation in between. */
  async rebuild(keep: (used: number[]) => Iterable<number>): Promise<void> {
    await this.#change((bits) => {
      const used: number[] = [];
      for (let offset = 0; offset < this.range.size; offset++) {
        if (isSet(bits, offset)) used.push(this.range.base + offset);
      }
      const kept = [...keep(used)];
      bits.fill(0);
      for (const port of kept) if (this.contains(port)) setBit(bits, port - this.range.base, true);
      return undefined;
    });
  }

  /** The ports marked used. */
  async used(): Promise<number[]> {
    const { bits } = await this.#read();
    const ports: number[] = [];
    for (let offset = 0; offset < this.range.size; offset++) {
      if (isSet(bits, offset)) ports.push(this.range.base + offset);
    }
    return ports;
  }

  async #read(): Promise<Bitmap> {
    const kv = await this.store.get(nodePortRecordKey);
    const bits = new Uint8Array(Math.ceil(this.range.size / 8));
    if (kv === undefined) return { bits, modRevision: undefined };
    const record = JSON.parse(decoder.decode(kv.value)) as { range?: string; data?: string };
    // A record of another range (the flag changed) is rebuilt by the repair pass; until then it counts as empty.
    if (record.range === formatPortRange(this.range) && typeof record.data === "string") {
      bits.set(Buffer.from(record.data, "base64").subarray(0, bits.length));
    }
    return { bits, modRevision: kv.modRevision };
  }

  /** One change at a time within the server, and compare-and-swap against the store. */
  #change<T>(apply: (bits: Uint8Array) => T): Promise<T> {
    const run = this.#queue.then(async () => {
      for (;;) {
        const { bits, modRevision } = await this.#read();
        const result = apply(bits);
        const value = encoder.encode(
          JSON.stringify({
            kind: "RangeAllocation",
            apiVersion: "v1",
            metadata: { name: "servicenodeports" },
            range: formatPortRange(this.range),
            data: Buffer.from(bits).toString("base64"),
          }),
        );
        try {
          if (modRevision === undefined) await this.store.create(nodePortRecordKey, value);
          else await this.store.update(nodePortRecordKey, value, modRevision);
          return result;
        } catch (error) {
          const raced =
            error instanceof KeyExistsError || error instanceof ConflictError || error instanceof NotFoundError;
          if (!raced) throw error;
        }
      }
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }
}

function isSet(bits: Uint8Array, offset: number): boolean {
  return ((bits[offset >> 3] ?? 0) & (1 << (offset & 7))) !== 0;
}

function setBit(bits: Uint8Array, offset: number, on: boolean): void {
  const i = offset >> 3;
  const mask = 1 << (offset & 7);
  bits[i] = on ? (bits[i] ?? 0) | mask : (bits[i] ?? 0) & ~mask;
}
