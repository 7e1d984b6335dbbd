// Every conversion between kinds of two groups that share one storage, from the hand-written functions.
import type { CrossGroupConversion } from "./convert.js";
import { crossGroupConversions as events } from "./functions/events.k8s.io.js";

export const crossGroupConversions: readonly CrossGroupConversion[] = [...events];
