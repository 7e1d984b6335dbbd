// kube's log audit backend: one line per event, as JSON (the Event as audit.k8s.io/v1 encodes it) or in the
// legacy one-line text format, to a file (rotating-file.ts) or standard output. A failed write is counted
// (apiserver_audit_error_total{plugin="log"}) and reported to the mode wrapping it.
import type { AuditBackend } from "./audit-backend.js";
import type { AuditEvent } from "./audit-sink.js";

export type LogFormat = "json" | "legacy";
export const logFormats: readonly LogFormat[] = ["legacy", "json"];

/** Go's %q of a string (ASCII text as it is; quotes and backslashes escaped). */
function goQuote(text: string): string {
  return JSON.stringify(text).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** RFC 3339 with nanoseconds, trailing zeros dropped, as Go's time.RFC3339Nano writes. */
function rfc3339Nano(micro: string): string {
  return micro.replace(/\.(\d+)Z$/, (_, digits: string) => {
    const trimmed = digits.replace(/0+$/, "");
    return trimmed === "" ? "Z" : `.${trimmed}Z`;
  });
}

/** kube's audit.EventString. */
export function legacyLine(event: AuditEvent): string {
  const username = event.user.username ?? "";
  const groups =
    username !== "" && (event.user.groups ?? []).length > 0
      ? (event.user.groups ?? []).map(goQuote).join(",")
      : "<none>";
  const as = event.impersonatedUser === undefined ? "<self>" : (event.impersonatedUser.username ?? "");
  const asGroups =
    event.impersonatedUser === undefined
      ? "<lookup>"
      : event.impersonatedUser.groups === undefined
        ? "<lookup>"
        : event.impersonatedUser.groups.map(goQuote).join(",");
  const namespace = event.objectRef?.namespace ?? "";
  const fields = [
    `id=${goQuote(event.auditID)}`,
    `stage=${goQuote(event.stage)}`,
    `ip=${goQuote(event.sourceIPs?.[0] ?? "<unknown>")}`,
    `method=${goQuote(event.verb)}`,
    `user=${goQuote(username === "" ? "<none>" : username)}`,
    `groups=${goQuote(groups)}`,
    `as=${goQuote(as)}`,
    `asgroups=${goQuote(asGroups)}`,
    `user-agent=${goQuote(event.userAgent ?? "")}`,
    `namespace=${goQuote(namespace === "" ? "<none>" : namespace)}`,
    `uri=${goQuote(event.requestURI)}`,
    `response="${event.responseStatus === undefined ? "<deferred>" : String(event.responseStatus.code)}"`,
  ];
  return `${rfc3339Nano(event.requestReceivedTimestamp)} AUDIT: ${fields.join(" ")}`;
}

/** Go's encoding/json escapes <, > and & in what it writes. */
function goJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

export function logBackend(
  /** `deferrable`: the line may be held a moment (a RequestReceived event; see rotating-file.ts). */
  write: (text: string, deferrable: boolean) => void,
  format: LogFormat,
  onError: (error: unknown, events: number) => void,
  close: () => void = () => {},
): AuditBackend {
  return {
    processEvents(events) {
      let ok = true;
      for (const event of events) {
        try {
          write(`${format === "json" ? goJson(event) : legacyLine(event)}\n`, event.stage === "RequestReceived");
        } catch (error) {
          onError(error, 1);
          ok = false;
        }
      }
      return ok;
    },
    shutdown: async () => close(),
  };
}
