// Creates every object of test/data/defaults/objects.yaml on a server with a server-side dry run (kubectl create
// --dry-run=server) and writes what it answered, normalized, to test/data/defaults/expected.json: the defaults
// test compares kapi's answers with these.
//
//   npx tsx scripts/record-defaults.ts --kubeconfig ~/.cache/kapi-reference/admin.kubeconfig
//   … --out /tmp/kapi-defaults.json   (to compare another server's answers by hand)
//
// The namespace d-defaults is created when missing and removed at the end if this created it (finalized at once:
// the reference runs no namespace controller).
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { parseAllDocuments } from "yaml";
import { defaultsNamespace, normalizeCreated, recordKey } from "../test/data/defaults/normalize.js";

const { values } = parseArgs({
  options: {
    kubeconfig: { type: "string" },
    out: { type: "string", default: "test/data/defaults/expected.json" },
  },
});
if (values.kubeconfig === undefined) throw new Error("--kubeconfig is required");
const env = { ...process.env, KUBECONFIG: values.kubeconfig };

function kubectl(args: string[], input?: string): { ok: boolean; out: string } {
  try {
    const out = execFileSync("kubectl", args, { env, input, encoding: "utf8", stdio: ["pipe", "pipe", "pipe"] });
    return { ok: true, out };
  } catch (error) {
    return { ok: false, out: String((error as { stderr?: unknown }).stderr ?? error).trim() };
  }
}

/**
 * Deletes the namespace and empties its finalizers, as the namespace controller would once it had removed the
 * (here nonexistent) contents: a reference server without kube-controller-manager would keep it Terminating.
 */
function removeNamespace(): void {
  kubectl(["delete", "namespace", defaultsNamespace, "--wait=false"]);
  const read = kubectl(["get", "namespace", defaultsNamespace, "-o", "json"]);
  if (!read.ok) return;
  const namespace = JSON.parse(read.out) as { spec?: { finalizers?: string[] } };
  namespace.spec = { ...namespace.spec, finalizers: [] };
  const path = `/api/v1/namespaces/${defaultsNamespace}/finalize`;
  kubectl(["replace", "--raw", path, "-f", "-"], JSON.stringify(namespace));
}

const created = kubectl(["create", "namespace", defaultsNamespace]).ok;
const objects = parseAllDocuments(readFileSync("test/data/defaults/objects.yaml", "utf8")).map(
  (doc) => doc.toJS() as Record<string, unknown>,
);
const recorded: Record<string, unknown> = {};
for (const obj of objects) {
  const answer = kubectl(
    ["create", "--dry-run=server", "-o", "json", "-n", defaultsNamespace, "-f", "-"],
    JSON.stringify(obj),
  );
  recorded[recordKey(obj)] = answer.ok ? normalizeCreated(JSON.parse(answer.out)) : { error: answer.out };
}
if (created) removeNamespace();
writeFileSync(values.out, `${JSON.stringify(recorded, null, 2)}\n`);
console.log(`recorded ${objects.length} objects in ${values.out}`);
