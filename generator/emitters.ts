// The ordered list of emitters `npm run generate` runs.
import type { Emitter } from "./emit/emitter.js";

export const emitters: Emitter[] = [];
