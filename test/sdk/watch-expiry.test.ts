// Expired resume points: a server keeping watch history for a short window, so that a resourceVersion
// read a little earlier is answered with 410 once later changes leave the window.
import { describe, expect, it } from "vitest";
import { ApiError, type WatchEvent } from "../../sdk/index.js";
import { eventually, rejection, serverPerFile, sleep } from "./client-fixture.js";

const windowMs = 300;
const kapi = serverPerFile({ watchHistoryWindowMs: windowMs });

/** A resourceVersion of `namespace`'s configmaps that changes made now push out of the history window. */
async function expiredResourceVersion(namespace: string): Promise<string> {
  const { configMaps } = kapi();
  const from = (await configMaps.list({ namespace })).metadata?.resourceVersion as string;
  await configMaps.create({ metadata: { name: "later-1" } }, { namespace });
  await configMaps.create({ metadata: { name: "later-2" } }, { namespace });
  await sleep(windowMs * 2);
  return from;
}

describe("an expired watch", () => {
  it("relists and yields the whole state in one RELISTED event, then follows changes", async () => {
    const namespace = await kapi().namespace("relist");
    await kapi().configMaps.create({ metadata: { name: "early" } }, { namespace });
    const from = await expiredResourceVersion(namespace);
    const abort = new AbortController();
    const seen: WatchEvent<unknown>[] = [];
    const done = (async () => {
      for await (const event of kapi().configMaps.watch({ namespace, resourceVersion: from, signal: abort.signal })) {
        if (event.type !== "BOOKMARK") seen.push(event);
      }
    })();
    await eventually(() => expect(seen).toHaveLength(1));
    const relisted = seen[0];
    if (relisted?.type !== "RELISTED") throw new Error(`expected RELISTED, got ${relisted?.type}`);
    expect(relisted.items.map((c) => (c as { metadata: { name: string } }).metadata.name)).toEqual([
      "early",
      "later-1",
      "later-2",
    ]);
    expect(Number(relisted.resourceVersion)).toBeGreaterThan(Number(from));

    await kapi().configMaps.delete("early", { namespace });
    await eventually(() => expect(seen.map((e) => e.type)).toEqual(["RELISTED", "DELETED"]));
    abort.abort();
    await done;
  });

  it("rejects with the server's 410 when asked to", async () => {
    const namespace = await kapi().namespace("expired");
    const from = await expiredResourceVersion(namespace);
    const events = kapi().configMaps.watch({ namespace, resourceVersion: from, onExpired: "error" });
    const error = await rejection(
      (async () => {
        for await (const _ of events) break;
      })(),
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 410, reason: "Expired" });
    expect((error as ApiError).message).toMatch(/^too old resource version: \d+ \(\d+\)$/);
  });
});

describe("an expired continue token", () => {
  async function pagedAfterExpiry(onExpired: "error" | "inconsistent"): Promise<string[]> {
    const namespace = await kapi().namespace(`continue-${onExpired}`);
    for (let i = 0; i < 4; i++) await kapi().configMaps.create({ metadata: { name: `c${i}` } }, { namespace });
    const names: string[] = [];
    for await (const item of kapi().configMaps.listAll({ namespace, limit: 2, onExpired })) {
      names.push(item.metadata?.name as string);
      if (names.length === 2) {
        await kapi().configMaps.create({ metadata: { name: "c9" } }, { namespace });
        await sleep(windowMs * 2);
      }
    }
    return names;
  }

  it("rejects listAll with 410 Expired by default", async () => {
    const error = await rejection(pagedAfterExpiry("error"));
    expect(error).toMatchObject({ code: 410, reason: "Expired" });
    expect((error as ApiError).message).toContain("The provided continue parameter is too old");
  });

  it("goes on with the server's inconsistent token when asked to", async () => {
    expect(await pagedAfterExpiry("inconsistent")).toEqual(["c0", "c1", "c2", "c3", "c9"]);
  });
});
