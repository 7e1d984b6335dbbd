// The `pod-template-hash` a Deployment gives its ReplicaSets. kube hashes the template with FNV-32a over Go's
// printed struct (DeepHashObject), which TypeScript cannot reproduce; kapi hashes the template's canonical JSON
// (keys sorted) the same way, so a hash is stable for a template and changes with it, and encodes it as kube
// does: the decimal digits of the 32-bit hash mapped through rand.SafeEncodeString's alphabet (so up to 10
// characters of "bcdfghjklmnpqrstvwxz2456789"). The collision count, when set, is hashed after the template.

const alphabet = "bcdfghjklmnpqrstvwxz2456789";

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

function fnv32a(bytes: Uint8Array, hash = 0x811c9dc5): number {
  let h = hash;
  for (const byte of bytes) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** kube's ComputeHash(template, collisionCount), with the hashing described above. */
export function podTemplateHash(template: unknown, collisionCount?: number): string {
  const encoder = new TextEncoder();
  let hash = fnv32a(encoder.encode(canonicalJson(template)));
  if (collisionCount !== undefined) {
    const bytes = new Uint8Array(4);
    new DataView(bytes.buffer).setUint32(0, collisionCount >>> 0, true);
    hash = fnv32a(bytes, hash);
  }
  return [...String(hash)].map((digit) => alphabet[digit.charCodeAt(0) % alphabet.length]).join("");
}
