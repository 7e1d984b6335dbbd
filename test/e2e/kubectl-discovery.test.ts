// kubectl itself against a started server, through the admin kubeconfig the server hands out.
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { servedGroupVersions } from "../../generated/discovery/served.js";
import { haveKubectl, type KubectlSession, kubectlPath, startKubectlSession } from "./kubectl-session.js";

const run = promisify(execFile);

describe.skipIf(!haveKubectl)("kubectl against kapi", () => {
  let session: KubectlSession;
  const kubectl = (...args: string[]) => session.kubectl(...args);

  beforeAll(async () => {
    session = await startKubectlSession();
  });
  afterAll(async () => session?.close());

  const enabled = servedGroupVersions.filter((gv) => gv.enabledByDefault);

  it("api-versions lists every group/version served by default", async () => {
    const expected = enabled.map((gv) => (gv.group === "" ? gv.version : `${gv.group}/${gv.version}`)).sort();
    expect((await kubectl("api-versions")).trim().split("\n")).toEqual(expected);
  });

  it("api-resources lists exactly the registry's resources", async () => {
    const out = await kubectl("api-resources", "-o", "name");
    const preferred = new Map<string, string>();
    for (const gv of [...enabled].sort((a, b) => a.versionPriority - b.versionPriority)) {
      if (!preferred.has(gv.group)) preferred.set(gv.group, gv.version);
    }
    const expected = enabled
      .filter((gv) => preferred.get(gv.group) === gv.version)
      .flatMap((gv) => gv.resources.map((r) => (gv.group === "" ? r.plural : `${r.plural}.${gv.group}`)));
    expect(out.trim().split("\n").sort()).toEqual([...new Set(expected)].sort());
  });

  it("get --raw /livez?verbose shows each check and the closing line", async () => {
    const lines = (await kubectl("get", "--raw", "/livez?verbose")).trimEnd().split("\n");
    // kube-apiserver's first checks, then one per post-start hook with the aggregator's autoregister-completion
    // among them, then the closing line.
    expect(lines.slice(0, 3)).toEqual(["[+]ping ok", "[+]log ok", "[+]etcd ok"]);
    expect(lines).toContain("[+]poststarthook/rbac/bootstrap-roles ok");
    expect(lines).toContain("[+]autoregister-completion ok");
    const hooks = lines.slice(3, -1).filter((line) => line !== "[+]autoregister-completion ok");
    expect(hooks.every((line) => /^\[\+\]poststarthook\/[a-z/-]+ ok$/.test(line))).toBe(true);
    expect(lines.at(-1)).toBe("livez check passed");
  });

  it("version -o json reports the server as Kubernetes 1.36", async () => {
    const { serverVersion } = JSON.parse(await kubectl("version", "-o", "json")) as {
      serverVersion: Record<string, string>;
    };
    expect(serverVersion).toMatchObject({ major: "1", minor: "36", gitVersion: "v1.36.2-kapi" });
  });

  it("get --raw /apis returns the APIGroupList", async () => {
    const doc = JSON.parse(await kubectl("get", "--raw", "/apis")) as { kind: string; groups: { name: string }[] };
    expect(doc.kind).toBe("APIGroupList");
    expect(doc.groups.map((g) => g.name)).toContain("apps");
  });

  it("is refused with a wrong token", async () => {
    const anonymous = join(session.dir, "anonymous.kubeconfig");
    const wrong = session.server.kubeconfig.replace(
      / {4}client-certificate-data: \S+\n {4}client-key-data: \S+\n/,
      "    token: wrong\n",
    );
    writeFileSync(anonymous, wrong);
    const failure = await run(kubectlPath, ["--kubeconfig", anonymous, "get", "--raw", "/version"]).catch(
      (e: { stderr: string }) => e,
    );
    expect((failure as { stderr: string }).stderr).toContain("Unauthorized");
  });
});
