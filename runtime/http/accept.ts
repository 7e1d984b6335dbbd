// Accept header negotiation as kube-apiserver does it: media ranges in the client's order of preference
// (q first, then position), parameters such as `as`, `g` and `v` must match an offered type exactly.

export interface MediaType {
  type: string;
  subtype: string;
  params: Record<string, string>;
}

interface MediaRange extends MediaType {
  q: number;
  index: number;
}

export function parseMediaType(text: string): MediaType {
  const [essence = "", ...rest] = text.split(";");
  const [type = "", subtype = ""] = essence.trim().toLowerCase().split("/");
  const params: Record<string, string> = {};
  for (const p of rest) {
    const eq = p.indexOf("=");
    if (eq < 0) continue;
    params[p.slice(0, eq).trim().toLowerCase()] = p
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, "$1");
  }
  return { type, subtype, params };
}

function parseAccept(header: string): MediaRange[] {
  return header
    .split(",")
    .filter((part) => part.trim() !== "")
    .map((part, index) => {
      const { type, subtype, params } = parseMediaType(part);
      const { q, ...rest } = params;
      const weight = q === undefined ? 1 : Number(q);
      return { type, subtype, params: rest, q: Number.isNaN(weight) ? 0 : weight, index };
    })
    .filter((r) => r.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
}

function matches(range: MediaRange, offer: MediaType): boolean {
  if (range.type !== "*" && range.type !== offer.type) return false;
  if (range.subtype !== "*" && range.subtype !== offer.subtype) return false;
  const keys = new Set([...Object.keys(range.params), ...Object.keys(offer.params)]);
  for (const key of keys) if (range.params[key] !== offer.params[key]) return false;
  return true;
}

/** The offer the client prefers most, undefined when none is acceptable; no Accept header takes the first. */
export function negotiate<T extends MediaType>(accept: string | undefined, offers: readonly T[]): T | undefined {
  if (accept === undefined || accept.trim() === "") return offers[0];
  for (const range of parseAccept(accept)) {
    const offer = offers.find((o) => matches(range, o));
    if (offer) return offer;
  }
  return undefined;
}

export function formatMediaType(m: MediaType): string {
  return [`${m.type}/${m.subtype}`, ...Object.entries(m.params).map(([k, v]) => `${k}=${v}`)].join(";");
}
