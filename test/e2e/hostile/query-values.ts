// Hostile query strings: every parameter kube-apiserver reads, with values chosen to break its parsers
// (selectors, integers, durations, enums, continue tokens), repeated, empty or unknown.
import { hostileNumbers, hostileStrings } from "./hostile-values.js";
import type { Prng } from "./prng.js";

/** Percent-encodes every byte outside the unreserved set, lone surrogates too (as U+FFFD). */
export function encodeQueryValue(value: string): string {
  let out = "";
  for (const byte of Buffer.from(value)) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

const labelKeys = [
  "app",
  "a.b/c",
  "a/b/c",
  "-x",
  "x-",
  "A",
  "k".repeat(64),
  "example.com/k",
  "",
  "!",
  "k8s.io/",
  "=",
  "in",
];
const labelValues = ["v", "", "-v", "v".repeat(64), "a b", "(", "x,y", "1", "é"];

function labelSelector(prng: Prng): string {
  const term = () => {
    const key = prng.pick(labelKeys);
    switch (prng.int(8)) {
      case 0:
        return `${key}=${prng.pick(labelValues)}`;
      case 1:
        return `${key}==${prng.pick(labelValues)}`;
      case 2:
        return `${key}!=${prng.pick(labelValues)}`;
      case 3:
        return `${key} in (${Array.from({ length: prng.between(0, 3) }, () => prng.pick(labelValues)).join(",")})`;
      case 4:
        return `${key} notin (${prng.pick(labelValues)}`;
      case 5:
        return `!${key}`;
      case 6:
        return `${key} ${prng.pick([">", "<", "gt", "lt", ">=", "=="])} ${prng.pick(["1", "x", "1e400", "-1"])}`;
      default:
        return key;
    }
  };
  switch (prng.int(6)) {
    case 0:
      return Array.from({ length: prng.size([10, 1000], [20_000]) }, (_, i) => `k${i}=v`).join(",");
    case 1:
      return `${"(".repeat(prng.size([10], [10_000]))}a`;
    case 2:
      return prng.pick([
        ",",
        ",,",
        "a,,b",
        "a=b=c",
        "in (a)",
        "a in",
        "a notin",
        "!a=b",
        "a in ()",
        "a=(b)",
        "\\",
        "a=b,",
      ]);
    default:
      return Array.from({ length: prng.between(1, 4) }, term).join(prng.pick([",", ", ", " ,"]));
  }
}

const fieldNames = [
  "metadata.name",
  "metadata.namespace",
  "spec.nodeName",
  "status.phase",
  "type",
  "spec.x",
  "foo",
  "",
];

function fieldSelector(prng: Prng): string {
  const term = () =>
    `${prng.pick(fieldNames)}${prng.pick(["=", "==", "!=", "", "===", " = ", "!"])}${prng.pick(["x", "", "\\", "a\\,b", "a\\=b", "\\\\", "\\n", "é", "a=b"])}`;
  switch (prng.int(4)) {
    case 0:
      return Array.from({ length: prng.size([10, 1000], [20_000]) }, (_, i) => `metadata.name!=n${i}`).join(",");
    case 1:
      return prng.pick([",", "=", "\\", "a=b\\", "metadata.name", "metadata.name=a,", ",metadata.name=a"]);
    default:
      return Array.from({ length: prng.between(1, 3) }, term).join(",");
  }
}

function continueToken(prng: Prng): string {
  const encode = (value: unknown) =>
    Buffer.from(JSON.stringify(value)).toString(prng.chance(0.5) ? "base64" : "base64url");
  switch (prng.int(5)) {
    case 0:
      return encode({
        v: "meta.k8s.io/v1",
        rv: prng.pick([-1, 0, 1, 1e20, "x"]),
        start: prng.pick(["a", "", "\u0000", "../x", "/"]),
      });
    case 1:
      return encode({ v: prng.pick(["", "v2", null]), rv: 1, start: "x" });
    case 2:
      return encode(prng.pick([null, [], "x", 1, {}]));
    case 3:
      return prng.pick([
        "!!!",
        "====",
        "e30",
        "eyJ2IjoibWV0YS5rOHMuaW8vdjEifQ",
        "a".repeat(prng.size([100], [10_000])),
      ]);
    default:
      return prng.pick(hostileStrings);
  }
}

const enumValues: Record<string, readonly string[]> = {
  resourceVersionMatch: ["NotOlderThan", "Exact", "notolderthan", ""],
  fieldValidation: ["Strict", "Warn", "Ignore", "strict", "All", ""],
  propagationPolicy: ["Orphan", "Background", "Foreground", "orphan", "None", ""],
  dryRun: ["All", "all", "None", ""],
};

/** The parameters kube-apiserver reads, and what values each is tried with. */
const parameters: Record<string, (prng: Prng) => string> = {
  limit: (prng) => prng.pick([...hostileNumbers, ...hostileStrings.slice(0, 12)]),
  continue: continueToken,
  resourceVersion: (prng) =>
    prng.pick(["0", "1", "-1", "", "999999999999", "18446744073709551616", "abc", "1.5", " 1"]),
  resourceVersionMatch: (prng) =>
    prng.pick([...(enumValues.resourceVersionMatch ?? []), ...hostileStrings.slice(0, 5)]),
  labelSelector,
  fieldSelector,
  timeoutSeconds: (prng) => prng.pick(["0", "1", "-1", "1.5", "1e9", "99999999999999999999", "x", "", "1s"]),
  timeout: (prng) => prng.pick(["1s", "0", "-1s", "1h", "x", "9999999999h", "1.5s", ""]),
  watch: (prng) => prng.pick(["true", "1", "0", "false", "", "yes", "TRUE", "x"]),
  dryRun: (prng) => prng.pick([...(enumValues.dryRun ?? []), "All,All"]),
  fieldManager: (prng) => prng.pick(["kubectl", "", "m".repeat(129), "\u0000", "\t", "é", "a\u007fb", "🙂"]),
  fieldValidation: (prng) => prng.pick(enumValues.fieldValidation ?? []),
  propagationPolicy: (prng) => prng.pick(enumValues.propagationPolicy ?? []),
  gracePeriodSeconds: (prng) => prng.pick(["0", "-1", "1", "9223372036854775808", "1.5", "x", ""]),
  orphanDependents: (prng) => prng.pick(["true", "false", "x", ""]),
  sendInitialEvents: (prng) => prng.pick(["true", "false", "x", "", "1"]),
  allowWatchBookmarks: (prng) => prng.pick(["true", "false", "x", ""]),
  pretty: (prng) => prng.pick(["true", "false", "1", "x", ""]),
  force: (prng) => prng.pick(["true", "false", "x", ""]),
  includeUninitialized: (prng) => prng.pick(["true", "x"]),
  exact: (prng) => prng.pick(["true", "x"]),
  export: (prng) => prng.pick(["true", "x"]),
  ignoreStoreReadErrorWithClusterBreakingPotential: (prng) => prng.pick(["true", "false", "x"]),
  shardSelector: (prng) => prng.pick(["x", "", "shardRange(object.metadata.uid, 0, 1)"]),
};

export const queryParameterNames = Object.keys(parameters);

/** A query string (with its `?`) of 1–4 hostile parameters, a watch always bounded to a second. */
export function hostileQuery(prng: Prng, focus?: string): string {
  const names = focus === undefined ? [] : [focus];
  for (let i = prng.between(0, 3); i > 0; i--) names.push(prng.pick(queryParameterNames));
  const pairs = names.map((name) => {
    const value = (parameters[name] as (p: Prng) => string)(prng);
    return prng.chance(0.05) ? `${name}` : `${name}=${encodeQueryValue(value)}`;
  });
  if (prng.chance(0.1))
    pairs.push(prng.pick(["=x", "&", "%zz=1", "a=%zz", "a=%", "limit=1&limit=2", "watch=1&watch=0", ";", "a+b=c+d"]));
  // A watch the fuzzer opens ends on its own; the client also stops reading after a moment.
  if (names.includes("watch") && !names.includes("timeoutSeconds")) pairs.push("timeoutSeconds=1");
  return `?${pairs.join("&")}`;
}
