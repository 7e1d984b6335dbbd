// The few DER encodings an X.509 certificate needs (ITU-T X.690), and the readings that take one apart;
// node:crypto signs but can neither build nor walk one.

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

export function tlv(tag: number, content: Buffer): Buffer {
  return Buffer.concat([Buffer.from([tag]), length(content.length), content]);
}

export function sequence(...items: Buffer[]): Buffer {
  return tlv(0x30, Buffer.concat(items));
}

export function set(...items: Buffer[]): Buffer {
  return tlv(0x31, Buffer.concat(items));
}

/** A non-negative INTEGER from its big-endian bytes; a leading zero keeps the sign bit clear. */
export function integer(bytes: Buffer): Buffer {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  const trimmed = bytes.subarray(start);
  return tlv(0x02, (trimmed[0] ?? 0) & 0x80 ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed);
}

export function smallInteger(n: number): Buffer {
  return integer(Buffer.from([n]));
}

export function boolean(value: boolean): Buffer {
  return tlv(0x01, Buffer.from([value ? 0xff : 0]));
}

export function oid(dotted: string): Buffer {
  const [first = 0, second = 0, ...rest] = dotted.split(".").map(Number);
  const bytes = [first * 40 + second];
  for (const arc of rest) {
    const chunk = [arc & 0x7f];
    for (let v = Math.floor(arc / 128); v > 0; v = Math.floor(v / 128)) chunk.unshift(0x80 | (v & 0x7f));
    bytes.push(...chunk);
  }
  return tlv(0x06, Buffer.from(bytes));
}

export function utf8String(s: string): Buffer {
  return tlv(0x0c, Buffer.from(s, "utf8"));
}

export function octetString(content: Buffer): Buffer {
  return tlv(0x04, content);
}

/** A BIT STRING with no unused bits. */
export function bitString(content: Buffer): Buffer {
  return tlv(0x03, Buffer.concat([Buffer.from([0]), content]));
}

/** UTCTime, which X.509 requires for dates before 2050. */
export function utcTime(date: Date): Buffer {
  const iso = date.toISOString();
  const digits =
    iso.slice(2, 4) + iso.slice(5, 7) + iso.slice(8, 10) + iso.slice(11, 13) + iso.slice(14, 16) + iso.slice(17, 19);
  return tlv(0x17, Buffer.from(`${digits}Z`, "ascii"));
}

/** Context-specific tag `n`: constructed (explicit wrapping) or primitive (implicit, as in GeneralName). */
export function contextTag(n: number, content: Buffer, constructed: boolean): Buffer {
  return tlv((constructed ? 0xa0 : 0x80) | n, content);
}

/** An X.509 extension: its OID, whether it is critical, and its DER value. */
export function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return critical ? sequence(oid(id), boolean(true), octetString(value)) : sequence(oid(id), octetString(value));
}

/** The elements of a constructed DER value (a SEQUENCE's items), each with its tag and whole encoding. */
export function children(der: Buffer): { tag: number; encoded: Buffer }[] {
  const header = (at: number): { length: number; start: number } => {
    const first = der[at + 1] ?? 0;
    if (first < 0x80) return { length: first, start: at + 2 };
    let length = 0;
    for (let i = 0; i < (first & 0x7f); i++) length = length * 256 + (der[at + 2 + i] ?? 0);
    return { length, start: at + 2 + (first & 0x7f) };
  };
  const outer = header(0);
  const out: { tag: number; encoded: Buffer }[] = [];
  for (let at = outer.start; at < outer.start + outer.length; ) {
    const { length, start } = header(at);
    out.push({ tag: der[at] ?? 0, encoded: der.subarray(at, start + length) });
    at = start + length;
  }
  return out;
}

/** The content of one encoded element, past its tag and length. */
export function contentOf(encoded: Buffer): Buffer {
  const first = encoded[1] ?? 0;
  return encoded.subarray(first < 0x80 ? 2 : 2 + (first & 0x7f));
}

/** An OBJECT IDENTIFIER's content in dotted form. */
export function decodeOid(content: Buffer): string {
  const arcs: number[] = [];
  let value = 0;
  for (const byte of content) {
    value = value * 128 + (byte & 0x7f);
    if (byte & 0x80) continue;
    if (arcs.length === 0) arcs.push(value < 80 ? Math.floor(value / 40) : 2, value < 80 ? value % 40 : value - 80);
    else arcs.push(value);
    value = 0;
  }
  return arcs.join(".");
}

/** The value of the ASN.1 string types Go's x509 parser reads as strings; undefined for any other tag. */
export function decodeString(tag: number, content: Buffer): string | undefined {
  switch (tag) {
    case 0x0c: // UTF8String
    case 0x12: // NumericString
    case 0x13: // PrintableString
    case 0x16: // IA5String
      return content.toString("utf8");
    case 0x14: // T61String
      return content.toString("latin1");
    case 0x1e: // BMPString (UTF-16, big-endian)
      return content.length % 2 === 0 ? Buffer.from(content).swap16().toString("utf16le") : undefined;
    default:
      return undefined;
  }
}
