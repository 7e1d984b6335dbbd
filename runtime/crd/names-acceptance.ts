// kube's naming condition controller: a definition's requested names are accepted unless another definition of
// the same group already holds them (its status.acceptedNames); names it already holds stay its own. The
// result is the accepted names, the NamesAccepted condition and the Established condition to write.
import type {
  CustomResourceDefinition,
  CustomResourceDefinitionCondition,
  CustomResourceDefinitionNames,
} from "../../generated/apiextensions.k8s.io/v1/types.js";

export interface NamingResult {
  acceptedNames: CustomResourceDefinitionNames;
  namesAccepted: CustomResourceDefinitionCondition;
  established: CustomResourceDefinitionCondition;
}

export function findCondition(
  crd: CustomResourceDefinition,
  type: string,
): CustomResourceDefinitionCondition | undefined {
  return crd.status?.conditions?.find((c) => c.type === type);
}

export function isConditionTrue(crd: CustomResourceDefinition, type: string): boolean {
  return findCondition(crd, type)?.status === "True";
}

/** Names held by the other definitions of the group: resources (plural, singular, short names) and kinds. */
function usedNames(crd: CustomResourceDefinition, all: Iterable<CustomResourceDefinition>) {
  const resources = new Set<string>();
  const kinds = new Set<string>();
  for (const other of all) {
    if (other.metadata?.name === crd.metadata?.name || other.spec.group !== crd.spec.group) continue;
    const accepted = other.status?.acceptedNames;
    if (accepted === undefined) continue;
    for (const name of [accepted.plural, accepted.singular ?? "", ...(accepted.shortNames ?? [])]) {
      if (name !== "") resources.add(name);
    }
    for (const name of [accepted.kind, accepted.listKind ?? ""]) if (name !== "") kinds.add(name);
  }
  return { resources, kinds };
}

function conflict(requested: string, accepted: string | undefined, used: Set<string>): string | undefined {
  if (requested === accepted || !used.has(requested)) return undefined;
  return `"${requested}" is already in use`;
}

export function acceptNames(crd: CustomResourceDefinition, all: Iterable<CustomResourceDefinition>): NamingResult {
  const { resources, kinds } = usedNames(crd, all);
  const requested = crd.spec.names;
  const accepted: Partial<CustomResourceDefinitionNames> = crd.status?.acceptedNames ?? {};
  const names: CustomResourceDefinitionNames = { plural: "", kind: "", ...accepted };
  let failure: { reason: string; message: string } | undefined;
  const check = (reason: string, problem: string | undefined, accept: () => void) => {
    if (problem === undefined) accept();
    else failure = { reason, message: problem };
  };
  check("PluralConflict", conflict(requested.plural, accepted.plural, resources), () => {
    names.plural = requested.plural;
  });
  check("SingularConflict", conflict(requested.singular ?? "", accepted.singular, resources), () => {
    if (requested.singular !== undefined) names.singular = requested.singular;
  });
  const held = new Set(accepted.shortNames ?? []);
  const shortProblem = (requested.shortNames ?? [])
    .filter((s) => !held.has(s))
    .map((s) => conflict(s, undefined, resources))
    .find((p) => p !== undefined);
  check("ShortNamesConflict", shortProblem, () => {
    if (requested.shortNames !== undefined) names.shortNames = requested.shortNames;
    else delete names.shortNames;
  });
  check("KindConflict", conflict(requested.kind, accepted.kind, kinds), () => {
    names.kind = requested.kind;
  });
  check("ListKindConflict", conflict(requested.listKind ?? "", accepted.listKind, kinds), () => {
    if (requested.listKind !== undefined) names.listKind = requested.listKind;
  });
  if (requested.categories !== undefined) names.categories = requested.categories;
  else delete names.categories;

  const namesAccepted: CustomResourceDefinitionCondition =
    failure === undefined
      ? { type: "NamesAccepted", status: "True", reason: "NoConflicts", message: "no conflicts found" }
      : { type: "NamesAccepted", status: "False", ...failure };
  let established: CustomResourceDefinitionCondition = findCondition(crd, "Established") ?? {
    type: "Established",
    status: "False",
    reason: "NotAccepted",
    message: "not all names are accepted",
  };
  if (established.status !== "True" && namesAccepted.status === "True") {
    established = {
      type: "Established",
      status: "True",
      reason: "InitialNamesAccepted",
      message: "the initial names have been accepted",
    };
  }
  return { acceptedNames: names, namesAccepted, established };
}
