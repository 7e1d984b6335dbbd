// RE2 regular expressions (re2js: linear-time, Go regexp syntax) with a cache of compiled patterns,
// shared by `matches` and the Kubernetes regex library (`find`, `findAll`). Patterns usually are
// literals, so a rule compiles its pattern once and every evaluation finds it in the cache.
import { RE2JS } from "re2js";
import { CelError } from "../../common/values.js";

const MAX_CACHED = 1000;
const cache = new Map<string, RE2JS | CelError>();

/** The compiled pattern, or a CelError worded as Go's regexp.Compile error (`error parsing regexp: …`). */
export function compileRegex(pattern: string): RE2JS | CelError {
  const known = cache.get(pattern);
  if (known !== undefined) return known;
  let compiled: RE2JS | CelError;
  try {
    compiled = RE2JS.compile(pattern);
    // re2js prefers its one-pass engine for anchored patterns even when no groups are wanted; its DFA
    // answers a yes/no match several times faster (~60 ns instead of ~300 ns on short input) and
    // submatch extraction stays correct on the backtracking and NFA engines.
    (compiled.re2() as { onepass: unknown }).onepass = null;
  } catch (e) {
    compiled = new CelError(e instanceof Error ? e.message : String(e));
  }
  // Dropping the oldest entry keeps memory bounded when patterns come from data.
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
  cache.set(pattern, compiled);
  return compiled;
}

/** Whether the pattern matches any part of the text (Go's regexp.MatchString). */
export function regexMatches(text: string, pattern: string): boolean | CelError {
  const re = compileRegex(pattern);
  return re instanceof CelError ? re : re.test(text);
}
