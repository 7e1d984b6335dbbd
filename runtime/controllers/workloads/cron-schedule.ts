// Cron schedules as kube's CronJob controller reads them (robfig/cron's standard parser): five fields
// (minute, hour, day of month, month, day of week) with `*`, `?`, lists, ranges, steps and month and day
// names, or a descriptor (@yearly, @annually, @monthly, @weekly, @daily, @midnight, @hourly, @every <duration>),
// evaluated in a time zone's wall clock. kapi has no cron library among its dependencies, so this small
// parser is its own.

interface Field {
  min: number;
  max: number;
  names?: readonly string[];
}

const fields: readonly Field[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"] },
  { min: 0, max: 6, names: ["sun", "mon", "tue", "wed", "thu", "fri", "sat"] },
];

const descriptors: Record<string, string> = {
  "@yearly": "0 0 1 1 *",
  "@annually": "0 0 1 1 *",
  "@monthly": "0 0 1 * *",
  "@weekly": "0 0 * * 0",
  "@daily": "0 0 * * *",
  "@midnight": "0 0 * * *",
  "@hourly": "0 * * * *",
};

export interface CronSchedule {
  /** The first activation strictly after `after`. */
  next(after: Date): Date;
}

function parseValue(text: string, field: Field): number {
  const named = field.names?.indexOf(text.toLowerCase()) ?? -1;
  const value = named >= 0 ? named + field.min : /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (Number.isNaN(value))
    throw new Error(`failed to parse int from ${text}: strconv.Atoi: parsing "${text}": invalid syntax`);
  return value;
}

/** One field as the set of values it allows, and whether it was `*` or `?` (for the day-of-month/week rule). */
function parseField(text: string, field: Field): { values: Set<number>; star: boolean } {
  const values = new Set<number>();
  let star = false;
  for (const part of text.split(",")) {
    const [range = "", stepText] = part.split("/");
    let low: number;
    let high: number;
    if (range === "*" || range === "?") {
      low = field.min;
      high = field.max;
      if (stepText === undefined) star = true;
    } else {
      const [from = "", to] = range.split("-");
      low = parseValue(from, field);
      high = to === undefined ? (stepText === undefined ? low : field.max) : parseValue(to, field);
    }
    const step = stepText === undefined ? 1 : parseValue(stepText, field);
    if (low < field.min) throw new Error(`beginning of range (${low}) below minimum (${field.min}): ${part}`);
    if (high > field.max) throw new Error(`end of range (${high}) above maximum (${field.max}): ${part}`);
    if (low > high) throw new Error(`beginning of range (${low}) beyond end of range (${high}): ${part}`);
    if (step === 0) throw new Error(`step of range should be a positive number: ${part}`);
    for (let v = low; v <= high; v += step) values.add(v);
  }
  return { values, star };
}

/** The UTC offset of `timeZone` at `instant`, in milliseconds. */
function offsetAt(instant: number, timeZone: string): number {
  if (timeZone === "UTC") return 0;
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
  }).formatToParts(new Date(instant));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const wall = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second"));
  return wall - Math.floor(instant / 1000) * 1000;
}

/** Whether Intl knows the zone (kube loads it from the tz database). */
export function knownTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
    return true;
  } catch {
    return false;
  }
}

function parseDuration(text: string): number {
  const units: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  let total = 0;
  let rest = text;
  while (rest !== "") {
    const match = /^(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/.exec(rest);
    if (match === null) throw new Error(`failed to parse duration @every ${text}: time: invalid duration "${text}"`);
    total += Number(match[1]) * (units[match[2] as string] ?? 0);
    rest = rest.slice(match[0].length);
  }
  return total;
}

/** Parses a schedule to be read in `timeZone` (an IANA name, UTC by default). */
export function parseSchedule(spec: string, timeZone = "UTC"): CronSchedule {
  const trimmed = spec.trim();
  if (trimmed.startsWith("@every ")) {
    // robfig's ConstantDelaySchedule: whole seconds, at least one, from the previous activation.
    const delay = Math.max(Math.floor(parseDuration(trimmed.slice(7).trim()) / 1000), 1) * 1000;
    return { next: (after) => new Date(Math.floor(after.getTime() / 1000) * 1000 + delay) };
  }
  const expanded = descriptors[trimmed] ?? trimmed;
  if (expanded.startsWith("@")) throw new Error(`unrecognized descriptor: ${trimmed}`);
  const parts = expanded.split(/\s+/);
  if (parts.length !== 5) throw new Error(`expected exactly 5 fields, found ${parts.length}: [${parts.join(" ")}]`);
  const [minute, hour, dom, month, dow] = parts.map((part, i) => parseField(part, fields[i] as Field)) as [
    ReturnType<typeof parseField>,
    ReturnType<typeof parseField>,
    ReturnType<typeof parseField>,
    ReturnType<typeof parseField>,
    ReturnType<typeof parseField>,
  ];
  const dayMatches = (wall: Date): boolean => {
    const domOk = dom.values.has(wall.getUTCDate());
    const dowOk = dow.values.has(wall.getUTCDay());
    return dom.star || dow.star ? domOk && dowOk : domOk || dowOk;
  };
  return {
    next(after: Date): Date {
      // Walk the wall clock (kept in a UTC Date) a field at a time, then map it back to an instant.
      let wall = new Date(
        Math.floor((after.getTime() + offsetAt(after.getTime(), timeZone)) / 60_000) * 60_000 + 60_000,
      );
      const limit = wall.getUTCFullYear() + 5;
      while (wall.getUTCFullYear() <= limit) {
        if (!month.values.has(wall.getUTCMonth() + 1)) {
          wall = new Date(Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth() + 1, 1));
          continue;
        }
        if (!dayMatches(wall)) {
          wall = new Date(Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate() + 1));
          continue;
        }
        if (!hour.values.has(wall.getUTCHours())) {
          wall = new Date(
            Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate(), wall.getUTCHours() + 1),
          );
          continue;
        }
        if (!minute.values.has(wall.getUTCMinutes())) {
          wall = new Date(wall.getTime() + 60_000);
          continue;
        }
        const guess = wall.getTime() - offsetAt(wall.getTime(), timeZone);
        const instant = wall.getTime() - offsetAt(guess, timeZone);
        if (instant > after.getTime()) return new Date(instant);
        wall = new Date(wall.getTime() + 60_000);
      }
      return new Date(Number.NaN);
    },
  };
}
