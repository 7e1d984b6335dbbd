// generateName: the prefix plus five characters from kube's alphabet, which leaves out vowels and
// look-alike characters so generated names never spell words.
import { randomInt } from "node:crypto";

const alphabet = "bcdfghjklmnpqrstvwxz2456789";
const suffixLength = 5;
/** kube truncates the prefix so the name stays within 63 characters. */
const maxGeneratedNameLength = 63;

export function generateName(prefix: string): string {
  const base =
    prefix.length > maxGeneratedNameLength - suffixLength
      ? prefix.slice(0, maxGeneratedNameLength - suffixLength)
      : prefix;
  let suffix = "";
  for (let i = 0; i < suffixLength; i++) suffix += alphabet[randomInt(alphabet.length)];
  return base + suffix;
}
