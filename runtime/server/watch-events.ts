// The events of a JSON watch response (one `{"type":…,"object":…}` line each), read as they arrive from the
// body of a Response: one from startServer's request() or from fetch. Leaving the loop early cancels the
// body, which ends the watch on the server as a client hanging up does.

export interface WatchEvent {
  type: "ADDED" | "MODIFIED" | "DELETED" | "BOOKMARK" | "ERROR";
  /** The object; a Status for ERROR. */
  object: Record<string, unknown>;
}

export async function* watchEvents(response: Response): AsyncGenerator<WatchEvent, void, undefined> {
  const body = response.body;
  if (body === null) return;
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let pending = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      pending += decoder.decode(value, { stream: !done });
      const lines = pending.split("\n");
      pending = done ? "" : (lines.pop() ?? "");
      for (const line of lines) if (line.trim() !== "") yield JSON.parse(line) as WatchEvent;
      if (done) return;
    }
  } finally {
    // A body that failed has nothing left to cancel.
    await reader.cancel().catch(() => {});
  }
}
