// The protobuf wire format written into one growing buffer. A length-delimited value is written in place
// behind a one-byte length and moved up only when its length needs more bytes, so nested messages cost no
// second pass and no copies of their own.

const two32 = 2 ** 32;

/** How many bytes the varint of a non-negative number below 2^53 takes. */
function varintSize(n: number): number {
  let size = 1;
  for (let v = n; v >= 0x80; v = Math.floor(v / 128)) size++;
  return size;
}

export class WireWriter {
  private buf: Buffer;
  private pos = 0;

  constructor(initialSize = 1024) {
    this.buf = Buffer.allocUnsafe(initialSize);
  }

  private reserve(bytes: number): void {
    const needed = this.pos + bytes;
    if (needed <= this.buf.length) return;
    const grown = Buffer.allocUnsafe(Math.max(needed, this.buf.length * 2));
    this.buf.copy(grown, 0, 0, this.pos);
    this.buf = grown;
  }

  /** An unsigned varint of a non-negative safe integer. */
  uint(n: number): void {
    this.reserve(10);
    let v = n;
    while (v >= 0x80) {
      this.buf[this.pos++] = (v % 128) | 0x80;
      v = Math.floor(v / 128);
    }
    this.buf[this.pos++] = v;
  }

  /** An int32 or int64 field's varint: negative numbers are their 64-bit two's complement, ten bytes. */
  int(n: number): void {
    if (n >= 0) {
      this.uint(n);
      return;
    }
    // The low and high 32 bits of the two's complement, in plain numbers (see WireReader's varint).
    let hi = Math.floor(n / two32);
    let lo = n - hi * two32;
    hi >>>= 0;
    this.reserve(10);
    while (hi !== 0 || lo >= 0x80) {
      this.buf[this.pos++] = (lo & 0x7f) | 0x80;
      lo = ((lo >>> 7) | (hi << 25)) >>> 0;
      hi >>>= 7;
    }
    this.buf[this.pos++] = lo;
  }

  tag(field: number, wireType: number): void {
    this.uint(field * 8 + wireType);
  }

  bool(value: boolean): void {
    this.reserve(1);
    this.buf[this.pos++] = value ? 1 : 0;
  }

  float(value: number): void {
    this.reserve(4);
    this.buf.writeFloatLE(value, this.pos);
    this.pos += 4;
  }

  double(value: number): void {
    this.reserve(8);
    this.buf.writeDoubleLE(value, this.pos);
    this.pos += 8;
  }

  /** A length-delimited run of bytes. */
  bytes(value: Uint8Array): void {
    this.uint(value.length);
    this.raw(value);
  }

  /** Bytes as they are, without a length. */
  raw(value: Uint8Array): void {
    this.reserve(value.length);
    this.buf.set(value, this.pos);
    this.pos += value.length;
  }

  /** A length-delimited UTF-8 string. */
  string(value: string): void {
    const n = value.length;
    if (n < 0x80) {
      // Most names and values are short ASCII: copied by hand, cheaper than Buffer.write for a few bytes.
      this.reserve(n + 1);
      let p = this.pos + 1;
      let i = 0;
      for (; i < n; i++) {
        const c = value.charCodeAt(i);
        if (c >= 0x80) break;
        this.buf[p++] = c;
      }
      if (i === n) {
        this.buf[this.pos] = n;
        this.pos = p;
        return;
      }
    }
    const start = this.begin();
    this.reserve(value.length * 3);
    this.pos += this.buf.write(value, this.pos, "utf8");
    this.end(start);
  }

  /** Starts a length-delimited value; `end` with the returned position closes it. */
  begin(): number {
    this.reserve(1);
    return this.pos++;
  }

  end(start: number): void {
    const length = this.pos - start - 1;
    if (length < 0x80) {
      this.buf[start] = length;
      return;
    }
    const extra = varintSize(length) - 1;
    this.reserve(extra);
    this.buf.copyWithin(start + 1 + extra, start + 1, this.pos);
    this.pos += extra;
    let v = length;
    let at = start;
    while (v >= 0x80) {
      this.buf[at++] = (v % 128) | 0x80;
      v = Math.floor(v / 128);
    }
    this.buf[at] = v;
  }

  /** The bytes written so far, copied out of the working buffer. */
  finish(): Buffer {
    return Buffer.from(this.buf.subarray(0, this.pos));
  }
}
