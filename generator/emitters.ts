// The ordered list of emitters `npm run generate` runs.
import { clientEmitter } from "./emit/client.js";
import { conversionsEmitter } from "./emit/conversions-emitter.js";
import { defaultersEmitter } from "./emit/defaulters.js";
import { discoveryEmitter } from "./emit/discovery.js";
import type { Emitter } from "./emit/emitter.js";
import { featureGatesEmitter } from "./emit/feature-gates.js";
import { fieldsEmitter } from "./emit/fields.js";
import { openapiEmitter } from "./emit/openapi.js";
import { printersEmitter } from "./emit/printers.js";
import { protoEmitter } from "./emit/proto.js";
import { registryEmitter } from "./emit/registry.js";
import { routesEmitter } from "./emit/routes.js";
import { typesEmitter } from "./emit/types.js";
import { validatorsEmitter } from "./emit/validators.js";

export const emitters: Emitter[] = [
  typesEmitter,
  registryEmitter,
  printersEmitter,
  routesEmitter,
  defaultersEmitter,
  validatorsEmitter,
  fieldsEmitter,
  conversionsEmitter,
  protoEmitter,
  openapiEmitter,
  discoveryEmitter,
  clientEmitter,
  featureGatesEmitter,
];
