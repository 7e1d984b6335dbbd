// OpenAPI `pattern` as Kubernetes evaluates it: Go's regexp (RE2 syntax, `(?i)` flags and all; JavaScript's
// RegExp refuses some of it and reads other parts differently), through re2js, compiled once per pattern.
import { RE2JS } from "re2js";

export interface Pattern {
  /** Whether the pattern matches anywhere in the text, as Go's MatchString. */
  test(text: string): boolean;
}

const compiled = new Map<string, Pattern | string>();
/** Patterns come from schemas, which may be written by users: the cache is bounded. */
const maxCached = 1000;

/** The compiled pattern, or Go's words for why it does not compile. */
export function compilePattern(pattern: string): Pattern | string {
  let known = compiled.get(pattern);
  if (known === undefined) {
    try {
      known = RE2JS.compile(pattern);
    } catch (error) {
      known = error instanceof Error ? error.message : String(error);
    }
    if (compiled.size >= maxCached) compiled.delete(compiled.keys().next().value as string);
    compiled.set(pattern, known);
  }
  return known;
}
