import { describe, expect, it } from "vitest";
import {
  controllerEnabled,
  defaultControllers,
  knownControllers,
  parseControllers,
} from "../../../runtime/controllers/controller-selection.js";

const enabledSet = (list: readonly string[]) =>
  knownControllers.filter((c) => controllerEnabled(c.name, list, c.disabledByDefault)).map((c) => c.name);

describe("--controllers", () => {
  it("runs every controller on by default under *, but not bootstrapsigner and tokencleaner", () => {
    expect(enabledSet(defaultControllers)).toEqual([
      "garbage-collector-controller",
      "namespace-controller",
      "serviceaccount-controller",
      "root-ca-certificate-publisher-controller",
      "clusterrole-aggregation-controller",
      "validatingadmissionpolicy-status-controller",
      "disruption-controller",
      "replicaset-controller",
      "replicationcontroller-controller",
      "deployment-controller",
      "job-controller",
      "cronjob-controller",
      "resourcequota-controller",
      "persistentvolumeclaim-protection-controller",
      "persistentvolume-protection-controller",
      "volumeattributesclass-protection-controller",
      "certificatesigningrequest-signing-controller",
      "certificatesigningrequest-approving-controller",
    ]);
  });

  it("turns on controllers that are off by default by name, aliases included", () => {
    const list = parseControllers("*,bootstrapsigner,token-cleaner-controller");
    expect(list).toEqual(["*", "bootstrap-signer-controller", "token-cleaner-controller"]);
    expect(controllerEnabled("bootstrap-signer-controller", list, true)).toBe(true);
    expect(controllerEnabled("token-cleaner-controller", list, true)).toBe(true);
    expect(controllerEnabled("namespace-controller", list, false)).toBe(true);
  });

  it("runs only the named controllers without *", () => {
    const list = parseControllers("tokencleaner, namespace");
    expect(enabledSet(list)).toEqual(["namespace-controller", "token-cleaner-controller"]);
  });

  it("lets the first entry naming a controller decide, wherever * stands", () => {
    expect(controllerEnabled("namespace-controller", parseControllers("*,-namespace"), false)).toBe(false);
    expect(controllerEnabled("namespace-controller", parseControllers("-namespace,*"), false)).toBe(false);
    expect(controllerEnabled("namespace-controller", parseControllers("namespace,-namespace"), false)).toBe(true);
    expect(controllerEnabled("namespace-controller", parseControllers("-namespace,namespace"), false)).toBe(false);
    expect(controllerEnabled("token-cleaner-controller", parseControllers("-tokencleaner,*"), true)).toBe(false);
  });

  it("runs nothing for an empty list", () => {
    expect(enabledSet(parseControllers(""))).toEqual([]);
  });

  it("refuses names no controller has, in kube-controller-manager's words", () => {
    expect(() => parseControllers("*,nosuch")).toThrow('"nosuch" is not in the list of known controllers');
    expect(() => parseControllers("-nosuch,other")).toThrow(
      '["nosuch" is not in the list of known controllers, "other" is not in the list of known controllers]',
    );
  });
});
