// The events of a JSON watch response (one `{"type":…,"object":…}` line each), read as they arrive from the
// body of a Response: one from startServer's request() or from fetch. Leaving the loop early cancels the
// body, which ends the watch on the server as a client hanging up does.
import { textLines } from "../../sdk/text-lines.js";

export interface WatchEvent {
  type: "ADDED" | "MODIFIED" | "DELETED" | "BOOKMARK" | "ERROR";
  /** The object; a Status for ERROR. */
  object: Record<string, unknown>;
}

export async function* watchEvents(response: Response): AsyncGenerator<WatchEvent, void, undefined> {
  if (response.body === null) return;
  // Leaving this loop early returns the body's iterator, which cancels the body.
  for await (const line of textLines(response.body)) yield JSON.parse(line) as WatchEvent;
}
