// events.k8s.io/v1 Event: stored as a core/v1 Event, a PUT to a missing name creates it, and writes get kube's
// strict event validation (eventTime, reporting controller and instance required, the deprecated fields unset,
// most fields immutable), checked on the core shape as kube checks its internal object.
import { convert_v1_Event_To_core_v1_Event } from "../conversion/functions/events.k8s.io.js";
import type { Strategy } from "../registry/strategy.js";
import { validateEventCreate, validateEventUpdate } from "./event-validation.js";

const rules = { strict: true, reportingControllerField: "reportingController" };

export const strategy: Strategy = {
  allowCreateOnUpdate: true,
  validate: (obj, old) => {
    const event = convert_v1_Event_To_core_v1_Event(obj);
    return old === undefined
      ? validateEventCreate(event, rules)
      : validateEventUpdate(event, convert_v1_Event_To_core_v1_Event(old), rules);
  },
};
