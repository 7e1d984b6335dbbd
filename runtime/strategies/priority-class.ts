// PriorityClass: generation starts at 1 on create, and the system classes kube-apiserver keeps can never be
// deleted (kube's priorityclass storage refuses it by name, before reading anything).

import { systemPriorityClasses } from "../controllers/system-priority-classes.js";
import type { Strategy } from "../registry/strategy.js";

const systemNames = new Set(systemPriorityClasses.map((c) => c.name));

export const strategy: Strategy = {
  tracksGeneration: true,
  deleteForbidden: (name) =>
    systemNames.has(name) ? "this is a system priority class and cannot be deleted" : undefined,
};
