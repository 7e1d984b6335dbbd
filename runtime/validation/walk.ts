// Tolerant accessors the generated defaulters use: defaulting runs before validation, so a value of the
// wrong type is left alone here and reported by the validators instead.

export type JsonObject = Record<string, unknown>;

export function asObject(value: unknown): JsonObject | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as JsonObject) : undefined;
}

export function listItems(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

export function mapValues(value: unknown): unknown[] {
  const obj = asObject(value);
  return obj === undefined ? [] : Object.values(obj);
}

/** The object under `key` of an object, or an empty one when either is not an object. */
export function objectField(value: unknown, key: string): JsonObject {
  return asObject(asObject(value)?.[key]) ?? {};
}

/** The objects of a list, the other items skipped. */
export function objectItems(value: unknown): JsonObject[] {
  return listItems(value).flatMap((item): JsonObject[] => {
    const obj = asObject(item);
    return obj === undefined ? [] : [obj];
  });
}
