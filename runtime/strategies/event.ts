// core/v1 Event: a PUT to a missing name creates it, and writes get kube's legacy event validation only
// (ValidateEventCreate / ValidateEventUpdate with the core/v1 request version).
import type { Strategy } from "../registry/strategy.js";
import { validateEventCreate, validateEventUpdate } from "./event-validation.js";

const rules = { strict: false, reportingControllerField: "reportingComponent" };

export const strategy: Strategy = {
  allowCreateOnUpdate: true,
  validate: (obj, old) => (old === undefined ? validateEventCreate(obj, rules) : validateEventUpdate(obj, old, rules)),
};
