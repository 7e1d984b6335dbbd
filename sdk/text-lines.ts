// Splits a byte stream into its non-blank lines, trimmed: a watch answer carries one JSON event a line. The
// SDK reads watches with it and the server's in-process watchEvents reads responses with it.

export async function* textLines(chunks: AsyncIterable<Uint8Array | string>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let pending = "";
  for await (const chunk of chunks) {
    pending += typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
    let end = pending.indexOf("\n");
    while (end >= 0) {
      const line = pending.slice(0, end).trim();
      pending = pending.slice(end + 1);
      if (line !== "") yield line;
      end = pending.indexOf("\n");
    }
  }
  pending += decoder.decode();
  if (pending.trim() !== "") yield pending.trim();
}
