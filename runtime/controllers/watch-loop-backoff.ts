// The backoff between attempts of the server's watch and list loops: 10 ms doubling to 10 s.
import { Backoff } from "../../sdk/backoff.js";

export function watchLoopBackoff(): Backoff {
  return new Backoff({ firstDelayMs: 10, maxDelayMs: 10_000 });
}
