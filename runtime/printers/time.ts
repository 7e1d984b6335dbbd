// Times as kube's table printers show them: RFC 3339 parsing as Go's time.Parse does it, and apimachinery's
// duration.HumanDuration for ages and durations.

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** Go's time.Parse(time.RFC3339, s) in milliseconds since the epoch; undefined when it does not parse. */
export function parseRfc3339(s: string): number | undefined {
  const m = RFC3339.exec(s);
  if (!m) return undefined;
  const [year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0] = m.slice(1, 7).map(Number);
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, Math.trunc(Number(`0${m[7] ?? ""}`) * 1000));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) {
    return undefined;
  }
  const zone = m[8] ?? "Z";
  const sign = zone.startsWith("-") ? -1 : 1;
  const offset = zone === "Z" ? 0 : sign * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4)));
  return date.getTime() - offset * 60_000;
}

/** Go's zero time.Time, 0001-01-01T00:00:00Z. */
export const ZERO_TIME = Date.parse("0001-01-01T00:00:00Z");

/** apimachinery's duration.HumanDuration: about two significant units (`45s`, `5m30s`, `3h`, `2d5h`, `3y`). */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / 1000);
  if (seconds < -1) return "<invalid>";
  if (seconds < 0) return "0s";
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.trunc(ms / 60_000);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.trunc(ms / 3_600_000);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.trunc(hours / 24)}d` : `${Math.trunc(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24)}d`;
  const years = Math.trunc(hours / 24 / 365);
  if (hours < 24 * 365 * 8) {
    const days = Math.trunc(hours / 24) % 365;
    return days === 0 ? `${years}y` : `${years}y${days}d`;
  }
  return `${years}y`;
}

/** A metav1.Time value in milliseconds; absent or unparsable reads as Go's zero time. */
export function timeOf(value: unknown): number {
  return (typeof value === "string" ? parseRfc3339(value) : undefined) ?? ZERO_TIME;
}

/** The printers' translateTimestampSince: `<unknown>` for the zero time, else the age. */
export function since(value: unknown, now: number): string {
  const time = timeOf(value);
  return time === ZERO_TIME ? "<unknown>" : humanDuration(now - time);
}
