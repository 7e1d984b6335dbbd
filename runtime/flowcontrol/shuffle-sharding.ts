// Shuffle sharding as kube-apiserver deals it: a flow's hash picks a hand of `handSize` distinct queues out
// of `queues`, so that two flows rarely share a whole hand. The hash is the first 8 bytes (little-endian) of
// SHA-256 over the FlowSchema's name, a zero byte and the flow distinguisher.
import { createHash } from "node:crypto";

export function flowHash(flowSchemaName: string, distinguisher: string): bigint {
  const digest = createHash("sha256").update(flowSchemaName).update(Buffer.of(0)).update(distinguisher).digest();
  return digest.readBigUInt64LE(0);
}

/** The queue indexes of the hand `hash` deals from a deck of `deckSize` queues. */
export function dealHand(hash: bigint, deckSize: number, handSize: number): number[] {
  const remainders: number[] = [];
  let rest = hash;
  for (let i = 0; i < handSize; i++) {
    const size = BigInt(deckSize - i);
    remainders.push(Number(rest % size));
    rest /= size;
  }
  // Each card counts among the cards not yet dealt: skip over those dealt before it.
  return remainders.map((remainder, i) => {
    let card = remainder;
    for (let j = i; j > 0; j--) if (card >= (remainders[j - 1] as number)) card++;
    return card;
  });
}
