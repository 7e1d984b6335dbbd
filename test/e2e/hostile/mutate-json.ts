// Mutations of a valid object: structural ones (a wrong type at any field, a removed or unknown field, a
// node buried deep) and textual ones on its JSON (truncation, flipped bytes, duplicate keys, odd literals).
import type { Json } from "./corpus.js";
import { hostileJson, nestedText, rawNumber, renderJson } from "./hostile-values.js";
import type { Prng } from "./prng.js";

type Container = Json[] | { [key: string]: Json };

function isContainer(value: Json): value is Container {
  return typeof value === "object" && value !== null;
}

/** Every container in `value` with the keys it holds, outermost first. */
function slots(value: Json): { parent: Container; key: string | number }[] {
  const out: { parent: Container; key: string | number }[] = [];
  const stack: Json[] = [value];
  while (stack.length > 0) {
    const node = stack.pop() as Json;
    if (!isContainer(node)) continue;
    const keys: (string | number)[] = Array.isArray(node) ? node.map((_, i) => i) : Object.keys(node);
    for (const key of keys) {
      out.push({ parent: node, key });
      stack.push((node as Record<string | number, Json>)[key] as Json);
    }
  }
  return out;
}

function clone(value: Json): Json {
  return JSON.parse(JSON.stringify(value)) as Json;
}

function set(parent: Container, key: string | number, value: Json): void {
  (parent as Record<string | number, Json>)[key] = value;
}

/** The object with one structural change. */
export function mutateValue(prng: Prng, valid: Json): Json {
  const value = clone(valid);
  const all = slots(value);
  if (all.length === 0) return hostileJson(prng);
  const { parent, key } = prng.pick(all);
  switch (prng.int(5)) {
    case 0:
    case 1:
      set(parent, key, hostileJson(prng));
      break;
    case 2:
      if (Array.isArray(parent)) parent.splice(key as number, 1);
      else delete parent[key as string];
      break;
    case 3: {
      const target = isContainer((parent as Record<string | number, Json>)[key] as Json)
        ? ((parent as Record<string | number, Json>)[key] as Container)
        : parent;
      if (Array.isArray(target)) target.push(hostileJson(prng));
      else target[prng.pick(["unknown", "$patch", "metadata", "", "apiVersion", "status", "a.b"])] = hostileJson(prng);
      break;
    }
    default:
      set(parent, key, prng.chance(0.5) ? [(parent as Record<string | number, Json>)[key] as Json] : { nested: null });
  }
  return value;
}

/** Several structural changes at once, as a fuzzer's mutations compound. */
export function mutateValueMany(prng: Prng, valid: Json): Json {
  let value = valid;
  for (let i = prng.between(1, 3); i > 0; i--) value = mutateValue(prng, value);
  return value;
}

/** The JSON text of `valid` with one textual change. */
export function mutateText(prng: Prng, valid: Json): Buffer {
  const text = renderJson(valid);
  const at = prng.int(text.length + 1);
  const insert = (what: string) => Buffer.from(`${text.slice(0, at)}${what}${text.slice(at)}`);
  switch (prng.int(13)) {
    case 0:
      return Buffer.from(text.slice(0, at));
    case 1: {
      const bytes = Buffer.from(text);
      for (let i = prng.between(1, 4); i > 0; i--) bytes[prng.int(bytes.length)] = prng.int(256);
      return bytes;
    }
    case 2: {
      // Invalid UTF-8 inside a string: a lone byte, a bad continuation, a surrogate, beyond U+10FFFF.
      const bad = Buffer.from(prng.pick([[0xff], [0xc3, 0x28], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0x80]]));
      const bytes = Buffer.from(text);
      const cut = bytes.indexOf(0x22, prng.int(bytes.length)) + 1;
      return Buffer.concat([bytes.subarray(0, cut), bad, bytes.subarray(cut)]);
    }
    case 3:
      return Buffer.from(text.replace("{", '{"metadata":{"name":"dup"},"kind":"Dup",'));
    case 4:
      return Buffer.from(
        text.replace(/\d+/, prng.pick(["1e400", "-0", "NaN", "Infinity", "0x10", "01", "1.", ".5", "1e", "-"])),
      );
    case 5:
      return insert(prng.pick(["\u0000", "\ufeff", "\\ud800", "\\u0000", "\\x41", "\\", "/*c*/", "\n"]));
    case 6:
      return Buffer.from(`\ufeff${text}`);
    case 7:
      return Buffer.from(`${text}${prng.pick(["garbage", "{}", "\n{}", " ", "]", "\u0000"])}`);
    case 8:
      return Buffer.from(text.replace(/"[^"]*"/, `"${"x".repeat(prng.size([1000], [100_000, 1_000_000]))}"`));
    case 9: {
      const depth = prng.size([100, 1000], [9_999, 10_001, 200_000]);
      return Buffer.from(text.replace("}", `,"deep":${nestedText(depth, prng.chance(0.5) ? "array" : "object")}}`));
    }
    case 10:
      return Buffer.from(
        text.replaceAll('":', `":${prng.pick(["", " ", "\t", "\n"])}`).replace(/,/g, prng.pick([",", " ,", ",,"])),
      );
    case 11:
      return insert(renderJson(rawNumber(prng.pick(["1e400", "18446744073709551616", "-0"]))));
    default:
      return Buffer.from(
        prng.pick(["", "null", "[]", "{}", "1", '"x"', "true", "{", "[", '{"a"', '{"apiVersion":1}', "{}{}"]),
      );
  }
}

/** A hostile JSON body for `valid`: mostly structural changes, sometimes textual ones. */
export function hostileJsonBody(prng: Prng, valid: Json): Buffer {
  if (prng.chance(0.6)) return Buffer.from(renderJson(mutateValueMany(prng, valid)));
  return mutateText(prng, prng.chance(0.5) ? valid : mutateValue(prng, valid));
}
