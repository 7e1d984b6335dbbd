// The CEL environment kube-apiserver v1.36 compiles schema rules in (k8s.io/apiserver/pkg/cel/
// environment/base.go at its compatibility version): the standard library; Kubernetes' URL, regex and
// list libraries (1.0); the authorizer library (1.27; schema rules declare no `authorizer` variable, so
// it only types); optional values and quantities (1.28); cel-go's literal validators (invalid
// duration, timestamp and regex literals, mixed-type list and map literals), string extensions at
// version 2 and sets (1.29); IP and CIDR (1.30); format (1.31); two-variable comprehensions (1.32); semver (1.33);
// cel-go's list extensions at version 3 (1.34). Bindings (`cel.bind`) and cel-go's math extensions are
// not part of it.
import { literalValidatorsLibrary } from "../checker/literal-validators.js";
import { CelEnv } from "../env.js";
import { comprehensionsLibrary } from "../library/comprehensions.js";
import { authorizerLibrary } from "../library/kubernetes/authorizer-library.js";
import { cidrLibrary } from "../library/kubernetes/cidr.js";
import { formatLibrary } from "../library/kubernetes/format.js";
import { ipLibrary } from "../library/kubernetes/ip.js";
import { listsLibrary } from "../library/kubernetes/kubernetes-lists.js";
import { quantityLibrary } from "../library/kubernetes/quantity-library.js";
import { regexLibrary } from "../library/kubernetes/regex-library.js";
import { semverLibrary } from "../library/kubernetes/semver.js";
import { setsLibrary } from "../library/kubernetes/sets.js";
import { urlLibrary } from "../library/kubernetes/url.js";
import { listsExtLibrary } from "../library/lists-extension.js";
import { optionalsLibrary } from "../library/optionals.js";
import { standardLibrary } from "../library/standard.js";
import { stringsLibrary } from "../library/strings.js";

/** The libraries of kube-apiserver's base environment, oldest first. */
export const kubernetesLibraries = [
  standardLibrary,
  urlLibrary,
  regexLibrary,
  listsLibrary,
  authorizerLibrary,
  optionalsLibrary,
  quantityLibrary,
  literalValidatorsLibrary,
  stringsLibrary,
  setsLibrary,
  ipLibrary,
  cidrLibrary,
  formatLibrary,
  comprehensionsLibrary,
  semverLibrary,
  listsExtLibrary,
];

let base: CelEnv | undefined;

/** The shared base environment, without variables; extend it with a rule's variables. */
export function kubernetesBaseEnv(): CelEnv {
  base ??= new CelEnv({ libraries: kubernetesLibraries });
  return base;
}
