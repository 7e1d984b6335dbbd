// Time zones for the timestamp accessors (`t.getHours('Europe/Paris')`), resolved as cel-go resolves
// them: a string with a ':' is a fixed offset read as hours and minutes (`+05:30`, `-08:00`, `02:00`);
// anything else is an IANA zone name (Go's time.LoadLocation; here the ICU data behind Intl).
import { CelError } from "../../common/values.js";

/** Seconds east of UTC at an instant (seconds since the epoch). */
export type ZoneOffset = (epochSeconds: number) => number;

const UTC: ZoneOffset = () => 0;
const MAX_CACHED = 200;
const zones = new Map<string, ZoneOffset | CelError>();

export function resolveTimeZone(name: string): ZoneOffset | CelError {
  const known = zones.get(name);
  if (known !== undefined) return known;
  const zone = name.includes(":") ? fixedOffset(name) : namedZone(name);
  if (zones.size >= MAX_CACHED) zones.delete(zones.keys().next().value as string);
  zones.set(name, zone);
  return zone;
}

/** cel-go reads `h:m` with strconv.Atoi on each side; a leading '-' makes the minutes negative too. */
function fixedOffset(text: string): ZoneOffset | CelError {
  const colon = text.indexOf(":");
  const hours = atoi(text.slice(0, colon));
  if (hours instanceof CelError) return hours;
  const minutes = atoi(text.slice(colon + 1));
  if (minutes instanceof CelError) return minutes;
  const offsetMinutes = text.startsWith("-") ? hours * 60 - minutes : hours * 60 + minutes;
  const seconds = offsetMinutes * 60;
  return () => seconds;
}

function atoi(s: string): number | CelError {
  if (!/^[+-]?[0-9]+$/.test(s)) return new CelError(`strconv.Atoi: parsing ${JSON.stringify(s)}: invalid syntax`);
  const n = BigInt(s);
  if (n > 2n ** 63n - 1n || n < -(2n ** 63n)) {
    return new CelError(`strconv.Atoi: parsing ${JSON.stringify(s)}: value out of range`);
  }
  return Number(n);
}

function namedZone(name: string): ZoneOffset | CelError {
  if (name === "" || name === "UTC") return UTC;
  const timeZone = name === "Local" ? new Intl.DateTimeFormat().resolvedOptions().timeZone : name;
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" });
  } catch {
    return new CelError(`unknown time zone ${name}`);
  }
  return (epochSeconds) => {
    const label = format.formatToParts(epochSeconds * 1000).find((p) => p.type === "timeZoneName")?.value ?? "";
    const m = /^GMT([+-])(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(label);
    if (!m) return 0;
    const seconds = Number(m[2]) * 3600 + Number(m[3]) * 60 + Number(m[4] ?? 0);
    return m[1] === "-" ? -seconds : seconds;
  };
}
