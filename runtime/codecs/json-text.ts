// JSON text for response bodies: JSON.stringify's output, compact or indented by two spaces. JSON.stringify
// recurses on Node's call stack and gives up a few thousand levels down; a value nested deeper is written
// again by a walk with a stack of its own, which writes the same text.

type Container = Record<string, unknown> | unknown[];

/** What JSON.stringify writes for `value`: its toJSON() result where it has one. */
function serialized(value: unknown, key: string): unknown {
  if (typeof value === "object" && value !== null && typeof (value as { toJSON?: unknown }).toJSON === "function") {
    return (value as { toJSON(key: string): unknown }).toJSON(key);
  }
  return value;
}

function isContainer(value: unknown): value is Container {
  return typeof value === "object" && value !== null;
}

interface Writing {
  value: Container;
  keys: string[] | undefined;
  next: number;
  written: number;
  indent: string;
}

function writing(value: Container, indent: string): Writing {
  return { value, keys: Array.isArray(value) ? undefined : Object.keys(value), next: 0, written: 0, indent };
}

/** The same text as JSON.stringify(value, null, pretty ? 2 : undefined), at any depth. */
function deepJsonText(value: unknown, pretty: boolean): string {
  const root = serialized(value, "");
  if (!isContainer(root)) return JSON.stringify(root) ?? "";
  const out: string[] = [Array.isArray(root) ? "[" : "{"];
  const stack = [writing(root, "")];
  for (let top = stack.at(-1); top !== undefined; top = stack.at(-1)) {
    const { keys } = top;
    const count = keys === undefined ? (top.value as unknown[]).length : keys.length;
    const inner = pretty ? `${top.indent}  ` : "";
    let entered: Container | undefined;
    while (top.next < count && entered === undefined) {
      const key = keys?.[top.next];
      const raw = key === undefined ? (top.value as unknown[])[top.next] : (top.value as Record<string, unknown>)[key];
      const item = serialized(raw, key ?? String(top.next));
      top.next++;
      // JSON.stringify's text for a scalar; undefined for what it leaves out (undefined, functions).
      const text = isContainer(item) ? undefined : (JSON.stringify(item) as string | undefined);
      // Members JSON has no text for are left out of objects and written as null in lists.
      if (key !== undefined && !isContainer(item) && text === undefined) continue;
      out.push(top.written++ > 0 ? "," : "");
      if (pretty) out.push(`\n${inner}`);
      if (key !== undefined) out.push(`${JSON.stringify(key)}:${pretty ? " " : ""}`);
      if (isContainer(item)) {
        out.push(Array.isArray(item) ? "[" : "{");
        entered = item;
      } else {
        out.push(text ?? "null");
      }
    }
    if (entered !== undefined) {
      stack.push(writing(entered, inner));
      continue;
    }
    if (pretty && top.written > 0) out.push(`\n${top.indent}`);
    out.push(keys === undefined ? "]" : "}");
    stack.pop();
  }
  return out.join("");
}

/** JSON.stringify(value), or with `pretty` JSON.stringify(value, null, 2), whatever the depth of `value`. */
export function jsonText(value: unknown, pretty = false): string {
  try {
    return (pretty ? JSON.stringify(value, null, 2) : JSON.stringify(value)) ?? "";
  } catch (error) {
    if (!(error instanceof RangeError) || !error.message.includes("call stack")) throw error;
    return deepJsonText(value, pretty);
  }
}
