import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { haveKubectl, type KubectlSession, startKubectlSession } from "../../../e2e/kubectl-session.js";
import { summarize } from "./replay-steps.js";

const data = new URL("../../../data/admission/service-account/", import.meta.url);
const reference = JSON.parse(readFileSync(new URL("kubectl.json", data), "utf8")) as {
  namespace: string;
  run: { stdout: string; pod: unknown };
  createGood: { stdout: string; pod: unknown };
  createBad: { stderr: string };
};

describe.skipIf(!haveKubectl)("ServiceAccount admission through kubectl", () => {
  let s: KubectlSession;
  const ns = reference.namespace;
  beforeAll(async () => {
    s = await startKubectlSession({ controllers: ["serviceaccount"] });
    // A pod right after its namespace: the plugin waits for the controller's default account.
    await s.kubectl("create", "namespace", ns);
  });
  afterAll(async () => {
    await s.close();
  });

  async function podSummary(name: string): Promise<unknown> {
    const pod = JSON.parse(await s.kubectl("-n", ns, "get", "pod", name, "-o", "json"));
    return summarize(200, pod).body;
  }

  it("kubectl run: the default account and its token volume", async () => {
    expect(await s.kubectl("-n", ns, "run", "web", "--image=nginx", "--restart=Never")).toBe(reference.run.stdout);
    expect(await podSummary("web")).toEqual(reference.run.pod);
  });

  it("kubectl create -f: init containers mount the token too", async () => {
    const file = new URL("good.yaml", data).pathname;
    expect(await s.kubectl("-n", ns, "create", "-f", file)).toBe(reference.createGood.stdout);
    expect(await podSummary("good")).toEqual(reference.createGood.pod);
  });

  it("kubectl create -f: a missing account is refused with kube's text", async () => {
    const file = new URL("bad.yaml", data).pathname;
    const stderr = await s.kubectlError("-n", ns, "create", "-f", file);
    expect(stderr.replace(file, "bad.yaml")).toBe(reference.createBad.stderr);
  });
});
