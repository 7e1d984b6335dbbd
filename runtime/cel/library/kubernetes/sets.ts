// cel-go's ext.Sets (enabled by Kubernetes from 1.29): lists treated as sets under CEL equality.
// `sets.contains(a, b)`: every element of b is in a; `sets.equivalent(a, b)`: each contains the other
// (sizes may differ); `sets.intersects(a, b)`: some element is in both. Each costs 1 plus one
// comparison per pair of elements, twice for equivalence.

import { BoolType, listType, typeParam } from "../../common/cel-types.js";
import type { CelLibrary, OverloadCost } from "../../common/decls.js";
import { celEquals } from "../../common/equality.js";
import type { CelList, CelValue } from "../../common/values.js";
import { multiplyEstimates } from "../kubernetes-call-cost.js";
import { actualSize, addCosts, multiplyByCostFactor, sizeOf } from "../kubernetes-cost.js";
import { declareFunction, globalOverload } from "../standard/declare.js";

function has(list: CelList, item: CelValue): boolean {
  for (let i = 0; i < list.size; i++) if (celEquals(list.get(i), item)) return true;
  return false;
}

function contains(list: CelList, sublist: CelList): boolean {
  for (let i = 0; i < sublist.size; i++) if (!has(list, sublist.get(i))) return false;
  return true;
}

function intersects(a: CelList, b: CelList): boolean {
  for (let i = 0; i < a.size; i++) if (has(b, a.get(i))) return true;
  return false;
}

/** cel-go's estimateSetsCost / trackSetsCost: 1 + size(a) × size(b) × factor. */
function setsCost(factor: number): OverloadCost {
  return {
    estimate: (args) =>
      addCosts(multiplyByCostFactor(multiplyEstimates(sizeOf(args[0]), sizeOf(args[1])), factor), { min: 1, max: 1 }),
    actual: (args) => 1 + Math.trunc(actualSize(args[0] as CelValue) * actualSize(args[1] as CelValue) * factor),
  };
}

const T = listType(typeParam("T"));

function lists(args: readonly CelValue[]): [CelList, CelList] {
  return [args[0] as CelList, args[1] as CelList];
}

export const setsLibrary: CelLibrary = {
  name: "cel.lib.ext.sets",
  functions: [
    declareFunction(
      "sets.contains",
      globalOverload("list_sets_contains_list", [T, T], BoolType, (args) => contains(...lists(args)), setsCost(1)),
    ),
    declareFunction(
      "sets.equivalent",
      globalOverload(
        "list_sets_equivalent_list",
        [T, T],
        BoolType,
        (args) => {
          const [a, b] = lists(args);
          return contains(a, b) && contains(b, a);
        },
        setsCost(2),
      ),
    ),
    declareFunction(
      "sets.intersects",
      globalOverload("list_sets_intersects_list", [T, T], BoolType, (args) => intersects(...lists(args)), setsCost(1)),
    ),
  ],
};
