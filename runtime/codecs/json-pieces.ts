// Compact JSON bodies with one long array, made piece by piece: a Table's rows or a list's items are
// converted and serialized a batch at a time, so the work can pause between batches (sliced-body.ts). The
// pieces joined are exactly `encodeObject`'s compact JSON of the whole value: JSON.stringify's text, Go's
// escapes, a closing newline.
import { escapeGoJson } from "./encode-response.js";
import { jsonText } from "./json-text.js";

function piece(text: string): Buffer {
  return Buffer.from(escapeGoJson(text));
}

/**
 * `value`'s members in their order, the member `key` being the array whose elements `batches` makes (what
 * `value` holds under `key` only fixes its place). Members JSON has no text for (undefined) are left out, as
 * JSON.stringify leaves them out.
 */
export function* jsonPiecesWithArray(
  value: Record<string, unknown>,
  key: string,
  batches: Iterable<readonly unknown[]>,
): Generator<Uint8Array> {
  let text = "{";
  let members = 0;
  for (const name of Object.keys(value)) {
    const member = name === key ? "" : jsonText(value[name]);
    if (name !== key && member === "") continue;
    text += `${members++ > 0 ? "," : ""}${JSON.stringify(name)}:`;
    if (name !== key) {
      text += member;
      continue;
    }
    text += "[";
    let elements = 0;
    for (const batch of batches) {
      for (const element of batch) text += `${elements++ > 0 ? "," : ""}${jsonText(element) || "null"}`;
      yield piece(text);
      text = "";
    }
    text += "]";
  }
  yield piece(`${text}}\n`);
}
