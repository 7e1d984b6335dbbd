// The Warning headers of a response, bounded as kube's warning recorder bounds them: each text once, and
// once their text passes 4096 characters, every warning cut to 256 and no more added past that total. A
// request with thousands of unknown fields gets a few kilobytes of warnings, not a header no client reads.
import { warningHeader } from "../codecs/field-validation.js";

const totalRunes = 4 * 1024;
const itemRunes = 256;

function truncated(text: string): { text: string; runes: number } {
  const runes = [...text];
  return runes.length > itemRunes
    ? { text: runes.slice(0, itemRunes).join(""), runes: itemRunes }
    : { text, runes: runes.length };
}

/** `Warning` header values for `texts`, in order, deduplicated and truncated as kube does. */
export function warningHeaders(texts: readonly string[]): string[] {
  const seen = new Set<string>();
  const kept: string[] = [];
  let headers: string[] = [];
  let written = 0;
  let truncating = false;
  for (const text of texts) {
    if (text === "" || seen.has(text)) continue;
    if (truncating && written >= totalRunes) break;
    seen.add(text);
    kept.push(text);
    const item = truncating ? truncated(text) : { text, runes: [...text].length };
    if (truncating || written + item.runes <= totalRunes) {
      written += item.runes;
      headers.push(warningHeader(item.text));
      continue;
    }
    // Past the limit: start again with every warning so far cut short.
    truncating = true;
    written = 0;
    headers = kept.map((earlier) => {
      const cut = truncated(earlier);
      written += cut.runes;
      return warningHeader(cut.text);
    });
  }
  return headers;
}
