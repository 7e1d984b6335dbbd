// What the JSON and YAML body parsers hand to request decoding: the value, and the duplicate keys the
// value no longer shows (the last occurrence wins, as in Go).

/** A key repeated within one object. */
export interface DuplicateKey {
  key: string;
  /** How many distinct keys the object had when the repeat came: it sits after their first occurrences. */
  after: number;
}

/** Repeated keys by the parsed object holding them, for walks that report problems in document order. */
export type DuplicateKeys = ReadonlyMap<object, readonly DuplicateKey[]>;

export interface ParsedBody {
  value: unknown;
  /** Paths of repeated keys in kube's strict-decoding wording (`spec.containers[0].image`), in document order. */
  duplicates: string[];
  duplicateKeys: DuplicateKeys;
  /** YAML only: repeats as kube's YAML reader reports them, `line 5: key "name" already set in map`. */
  yamlDuplicates: string[];
}

/** A body that is not well-formed, with the parser's message in the words kube's decoder uses. */
export interface ParseFailure {
  error: string;
  /**
   * YAML only: the YAML converted, but the JSON it became is refused by encoding/json's reader (it nests too
   * deep); kube reports that from whichever step reads the JSON next.
   */
  convertedJson?: true;
}

/** Strict-decoding paths: struct fields and map keys joined by dots, list items as `[i]`. */
/** A refused body; `claimed` is the kind and version it named, when the decoder got that far (protobuf). */
export interface BodyFailure extends ParseFailure {
  claimed?: { kind: string; version: string };
}

export function fieldPath(segments: readonly (string | number)[]): string {
  let path = "";
  for (const s of segments) {
    if (typeof s === "number") path += `[${s}]`;
    else path = path === "" ? s : `${path}.${s}`;
  }
  return path;
}

/** Sets a parsed key without letting `__proto__` replace the object's prototype. */
export function setKey(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__")
    Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}
