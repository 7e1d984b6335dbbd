// How many seats a request takes, as kube-apiserver's work estimator says with its v1.36 defaults
// (SizeBasedListCostEstimate and WatchList on): a LIST, and a WATCH that starts with the current state, by
// the memory its objects take (100 kB a seat; lists and watches are served from the watch cache, so at most
// 1 MB counts), between 1 and the level's cap (at most 100); everything else 1 seat. kube also gives a
// mutating request extra seats for the watchers its change reaches; kapi does not (docs/flowcontrol.md).
import type { RequestInfo } from "../routing/request-info.js";

const bytesPerSeat = 100_000;
const cacheStreamingMaxBytes = 1_000_000;
const maximumListSeats = 100;

export interface CollectionStats {
  objectCount: number;
  storedBytes: number;
}

export function estimateSeats(
  info: RequestInfo,
  query: URLSearchParams,
  stats: CollectionStats | undefined,
  levelMaxSeats: number,
): number {
  if (info.verb !== "list" && info.verb !== "watch") return 1;
  const maxSeats = levelMaxSeats === 0 || levelMaxSeats > maximumListSeats ? maximumListSeats : levelMaxSeats;
  if (info.verb === "watch") {
    const resourceVersion = query.get("resourceVersion") ?? "";
    const sendInitialEvents = query.get("sendInitialEvents") === "true";
    if (!sendInitialEvents && resourceVersion !== "" && resourceVersion !== "0") return 1;
  }
  // A collection never counted is kube's "not found": the least.
  if (stats === undefined) return 1;
  const average = stats.objectCount === 0 ? 0 : stats.storedBytes / stats.objectCount;
  const limit = Number.parseInt(query.get("limit") ?? "", 10);
  const objects =
    info.name !== "" ? 1 : Number.isFinite(limit) && limit > 0 && limit < stats.objectCount ? limit : stats.objectCount;
  const bytes = Math.min(objects * average, cacheStreamingMaxBytes);
  const seats = Math.ceil(bytes / bytesPerSeat);
  return Math.min(Math.max(seats, 1), maxSeats);
}
