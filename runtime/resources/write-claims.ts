// A write between its strategy's claim and the store: the claims are committed once the write succeeds
// and reverted when it fails, whatever fails (validation, admission, the store).
import type { WriteClaims } from "../registry/strategy.js";

export async function settleClaims<T>(claims: WriteClaims | undefined, write: () => Promise<T>): Promise<T> {
  if (claims === undefined) return write();
  let result: T;
  try {
    result = await write();
  } catch (error) {
    await claims.revert();
    throw error;
  }
  await claims.commit();
  return result;
}
