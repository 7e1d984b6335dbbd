// Documents are served and hashed with object keys sorted, so the same content always has the same bytes.

export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== "object" || value === null) return value;
  const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([k, v]) => [k, sortKeys(v)]));
}

export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}
