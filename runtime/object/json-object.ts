// A decoded JSON object: the one test every module walking plain JSON uses to tell objects from lists,
// scalars and null.
export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
