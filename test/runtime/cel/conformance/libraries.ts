// The environment every conformance test runs in: the standard library, cel-go's extensions kapi
// implements (optionals, bindings, two-variable comprehensions, math, encoders, strings) and Kubernetes'
// IP and CIDR libraries for network_ext, as cel-go's conformance server enables its extensions (the
// strings extension at its latest version, as there).
import type { CelLibrary } from "../../../../runtime/cel/common/decls.js";
import { bindingsLibrary } from "../../../../runtime/cel/library/bindings.js";
import { comprehensionsLibrary } from "../../../../runtime/cel/library/comprehensions.js";
import { encodersLibrary } from "../../../../runtime/cel/library/encoders.js";
import { cidrLibrary } from "../../../../runtime/cel/library/kubernetes/cidr.js";
import { ipLibrary } from "../../../../runtime/cel/library/kubernetes/ip.js";
import { mathLibrary } from "../../../../runtime/cel/library/math.js";
import { optionalsLibrary } from "../../../../runtime/cel/library/optionals.js";
import { standardLibrary } from "../../../../runtime/cel/library/standard.js";
import { LATEST_STRINGS_VERSION, stringsLibraryAt } from "../../../../runtime/cel/library/strings.js";

export const conformanceLibraries: readonly CelLibrary[] = [
  standardLibrary,
  optionalsLibrary,
  bindingsLibrary,
  comprehensionsLibrary,
  mathLibrary,
  encodersLibrary,
  stringsLibraryAt(LATEST_STRINGS_VERSION),
  ipLibrary,
  cidrLibrary,
];
