// Hostile protobuf bodies: kube's `k8s\0` envelope around random bytes, and valid objects' messages that are
// truncated, corrupted, or carry impossible lengths.
import { encodeProtobuf } from "../../../runtime/codecs/protobuf/protobuf-response.js";
import type { Json } from "./corpus.js";
import type { Prng } from "./prng.js";

const magic = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

/** A varint of up to ten bytes, even past what fits 64 bits. */
function varint(prng: Prng): Buffer {
  const length = prng.between(1, 11);
  const out = Buffer.alloc(length, 0xff);
  out[length - 1] = prng.int(128);
  return out;
}

function encoded(valid: Json): Buffer | undefined {
  try {
    return encodeProtobuf(valid as Record<string, unknown>);
  } catch {
    return undefined;
  }
}

export function hostileProtobufBody(prng: Prng, valid: Json): Buffer {
  const good = encoded(valid);
  switch (good === undefined ? 0 : prng.int(7)) {
    case 0:
      return Buffer.concat([magic, prng.bytes(prng.pick([0, 1, 7, 64, 4096]))]);
    case 1:
      return (good as Buffer).subarray(0, prng.int((good as Buffer).length));
    case 2: {
      const bytes = Buffer.from(good as Buffer);
      for (let i = prng.between(1, 6); i > 0; i--)
        bytes[magic.length + prng.int(bytes.length - magic.length)] = prng.int(256);
      return bytes;
    }
    case 3: {
      // A field whose length says more than the message holds, or a varint past 64 bits.
      const bytes = good as Buffer;
      const cut = magic.length + prng.int(bytes.length - magic.length);
      return Buffer.concat([
        bytes.subarray(0, cut),
        Buffer.from([0x0a + 8 * prng.int(4)]),
        varint(prng),
        bytes.subarray(cut),
      ]);
    }
    case 4:
      return prng.pick([magic.subarray(0, 3), Buffer.from("k8s"), magic, Buffer.from([0x6b, 0x38, 0x73, 0x01, 0x0a])]);
    case 5:
      return Buffer.concat([magic, Buffer.from([0x12]), nestedMessage(prng.size([10, 100], [1000, 20_000]))]);
    default:
      return Buffer.concat([good as Buffer, prng.bytes(prng.between(1, 32))]);
  }
}

function lengthOf(n: number): Buffer {
  const out: number[] = [];
  let rest = n;
  while (rest >= 0x80) {
    out.push((rest & 0x7f) | 0x80);
    rest >>>= 7;
  }
  out.push(rest);
  return Buffer.from(out);
}

/** A message field nested `depth` times, with its length prefix: each level a field 1 holding the next. */
function nestedMessage(depth: number): Buffer {
  const sizes = [2];
  for (let i = 1; i <= depth; i++) {
    const inner = sizes[i - 1] as number;
    sizes.push(1 + lengthOf(inner).length + inner);
  }
  const parts: Buffer[] = [lengthOf(sizes[depth] as number)];
  for (let i = depth - 1; i >= 0; i--) parts.push(Buffer.from([0x0a]), lengthOf(sizes[i] as number));
  parts.push(Buffer.from([0x08, 0x01]));
  return Buffer.concat(parts);
}
