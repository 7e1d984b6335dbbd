// kube-controller-manager's event recorder as the workload controllers use it: a core/v1 Event in the
// object's namespace, named `<object>.<nanoseconds since the epoch in hex>`, from the controller's
// component, about objects of the one kind the controller manages. Recording never fails a sync: an event
// that cannot be written is logged and dropped.
import type { KubeObject } from "../../object/kube-object.js";
import { builtinKind } from "../../registry/kinds.js";
import type { ResourceApi } from "../../resources/resource-api.js";
import { formatTime } from "../../resources/timestamps.js";
import type { ControllerContext } from "../controller-context.js";
import { type Meta, metaOf } from "./workload-objects.js";

const events = builtinKind("", "v1", "events");

export type EventType = "Normal" | "Warning";

/** The kind of the objects events are about, as the events' involvedObject names it. */
export interface InvolvedKind {
  apiVersion: string;
  kind: string;
}

export class EventRecorder {
  private lastNanos = 0n;

  constructor(
    private readonly api: ResourceApi,
    private readonly component: string,
    private readonly involved: InvolvedKind,
    private readonly context: ControllerContext,
  ) {}

  /** Records an event about `object`. */
  record(object: { metadata?: Meta }, type: EventType, reason: string, message: string): void {
    void this.write(object, type, reason, message);
  }

  private nanos(now: Date): bigint {
    let nanos = BigInt(now.getTime()) * 1_000_000n + BigInt(Math.floor(performance.now() * 1000) % 1_000_000);
    if (nanos <= this.lastNanos) nanos = this.lastNanos + 1n;
    this.lastNanos = nanos;
    return nanos;
  }

  private async write(object: { metadata?: Meta }, type: EventType, reason: string, message: string): Promise<void> {
    const meta = metaOf(object);
    const { apiVersion, kind } = this.involved;
    const now = this.api.context.now();
    const time = formatTime(now);
    const event = {
      apiVersion: "v1",
      kind: "Event",
      metadata: { name: `${meta.name}.${this.nanos(now).toString(16)}`, namespace: meta.namespace },
      involvedObject: {
        kind,
        namespace: meta.namespace,
        name: meta.name,
        uid: meta.uid,
        apiVersion,
        resourceVersion: meta.resourceVersion,
      },
      reason,
      message,
      source: { component: this.component },
      firstTimestamp: time,
      lastTimestamp: time,
      count: 1,
      type,
      eventTime: null,
      reportingComponent: this.component,
      reportingInstance: "",
    } as KubeObject;
    try {
      await this.api.create({ kind: events, namespace: meta.namespace }, event);
    } catch (error) {
      if (!this.context.signal.aborted) this.context.log(`${this.component}: recording event ${reason} failed`, error);
    }
  }
}
