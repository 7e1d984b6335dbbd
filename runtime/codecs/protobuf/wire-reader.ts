// The protobuf wire format, read the way gogo-protobuf's generated Unmarshal methods read it, so that a
// malformed body fails with the words kube-apiserver answers with (`unexpected EOF`, `proto: integer
// overflow`, `proto: Deployment: illegal tag 0 (wire type 0)`).

/** A body gogo-protobuf would refuse, worded as its generated code words it. */
export class ProtobufError extends Error {}

export const wireTypes = { varint: 0, fixed64: 1, bytes: 2, startGroup: 3, endGroup: 4, fixed32: 5 } as const;

const unexpectedEof = "unexpected EOF";
const integerOverflow = "proto: integer overflow";
const negativeLength = "proto: negative length found during unmarshaling";

const two32 = 2 ** 32;

export interface Tag {
  field: number;
  wireType: number;
}

export class WireReader {
  private pos: number;

  constructor(
    private readonly buf: Uint8Array,
    start = 0,
    private readonly end = buf.length,
  ) {
    this.pos = start;
  }

  get done(): boolean {
    return this.pos >= this.end;
  }

  /**
   * An unsigned varint of up to 64 bits as its low and high 32 bits (unsigned); gogo gives up after ten bytes
   * and drops bits past the 64th. Plain numbers, not BigInt: V8's optimizer has crashed the process on
   * BigInt loops of this shape.
   */
  private varint64(): [number, number] {
    let lo = 0;
    let hi = 0;
    for (let i = 0; ; i++) {
      if (i >= 10) throw new ProtobufError(integerOverflow);
      if (this.pos >= this.end) throw new ProtobufError(unexpectedEof);
      const b = this.buf[this.pos++] as number;
      const bits = b & 0x7f;
      if (i < 4) lo |= bits << (7 * i);
      else if (i === 4) {
        lo |= bits << 28;
        hi |= bits >>> 4;
      } else hi |= bits << (7 * i - 32);
      if (b < 0x80) return [lo >>> 0, hi >>> 0];
    }
  }

  /** A varint read as Go's int64. */
  int64(): number {
    const [lo, hi] = this.varint64();
    return (hi | 0) * two32 + lo;
  }

  /** A varint read as Go's int32: its low 32 bits. */
  int32(): number {
    return this.varint64()[0] | 0;
  }

  bool(): boolean {
    const [lo, hi] = this.varint64();
    return lo !== 0 || hi !== 0;
  }

  /** A field's key; `message` is the Go type named in the errors. */
  tag(message: string): Tag {
    const [lo, hi] = this.varint64();
    const wireType = lo & 7;
    const field = (lo >>> 3) | (hi << 29);
    if (wireType === wireTypes.endGroup) throw new ProtobufError(`proto: ${message}: wiretype end group for non-group`);
    // gogo prints the whole key where it says "wire type".
    if (field <= 0) {
      const wire = (BigInt(hi) << 32n) | BigInt(lo);
      throw new ProtobufError(`proto: ${message}: illegal tag ${field} (wire type ${wire})`);
    }
    return { field, wireType };
  }

  /** A length-delimited value as a reader of its own. */
  delimited(): WireReader {
    const [lo, hi] = this.varint64();
    // Go's int is 64 bits: a length at or above 2^63 wraps negative.
    if (hi >= 0x80000000) throw new ProtobufError(negativeLength);
    const end = this.pos + hi * two32 + lo;
    if (end > this.end) throw new ProtobufError(unexpectedEof);
    const sub = new WireReader(this.buf, this.pos, end);
    this.pos = end;
    return sub;
  }

  /** What is left of this reader. */
  rest(): Uint8Array {
    const bytes = this.buf.subarray(this.pos, this.end);
    this.pos = this.end;
    return bytes;
  }

  fixed(size: 4 | 8): DataView {
    if (this.pos + size > this.end) throw new ProtobufError(unexpectedEof);
    const view = new DataView(this.buf.buffer, this.buf.byteOffset + this.pos, size);
    this.pos += size;
    return view;
  }

  /** Skips a field this reader's message does not know, as gogo's skipGenerated does. */
  skip(wireType: number): void {
    switch (wireType) {
      case wireTypes.varint:
        this.varint64();
        return;
      case wireTypes.fixed64:
        this.fixed(8);
        return;
      case wireTypes.bytes:
        this.delimited();
        return;
      case wireTypes.startGroup: {
        // Groups nest without bound: counted rather than recursed into, as gogo's skipGenerated counts them.
        let depth = 1;
        while (depth > 0) {
          const inner = this.varint64()[0] & 7;
          if (inner === wireTypes.startGroup) depth++;
          else if (inner === wireTypes.endGroup) depth--;
          else this.skip(inner);
        }
        return;
      }
      case wireTypes.endGroup:
        return;
      case wireTypes.fixed32:
        this.fixed(4);
        return;
      default:
        throw new ProtobufError(`proto: illegal wireType ${wireType}`);
    }
  }
}

/** gogo's check that a known field arrives in the wire type its Go type is written in. */
export function wrongWireType(wireType: number, goField: string): ProtobufError {
  return new ProtobufError(`proto: wrong wireType = ${wireType} for field ${goField}`);
}
