// Tables of built-in kinds against kube-apiserver's: the objects of test/data/printers/objects.yaml are created
// here as scripts/printers/record-tables.sh created them on the reference, and for every resource of
// test/data/printers/resources.txt the Table answer must match the recorded one (column definitions exactly,
// cells once ages and generated ids are normalized), and so must `kubectl get` and `kubectl get -o wide`.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { kinds } from "../../../generated/registry.js";
import { type KubectlSession, startKubectlSession } from "../../e2e/kubectl-session.js";

const data = new URL("../../data/printers/", import.meta.url);
const read = (name: string) => readFileSync(new URL(name, data), "utf8");
const ns = "c-print";
const tableType = "application/json;as=Table;v=v1;g=meta.k8s.io";

interface Listed {
  prefix: string;
  resource: string;
  /** The one cluster-scoped object recorded; absent for namespaced resources (the whole namespace). */
  name: string | undefined;
  file: string;
}

const listed: Listed[] = read("resources.txt")
  .split("\n")
  .filter((line) => line.trim() !== "" && !line.startsWith("#"))
  .map((line) => {
    const [prefix = "", resource = "", name] = line.trim().split(/\s+/);
    return { prefix, resource, name, file: `${prefix.replace(/^apis?\//, "").replaceAll("/", ".")}.${resource}` };
  });

interface Table {
  columnDefinitions: { name: string }[];
  rows: { cells: unknown[]; conditions?: unknown }[];
}

const uid = /[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}/g;
const age = /^(\d+(s|m|h|d|y))+$|^<invalid>$/;

/** Ages depend on the clock and uids on the server: both read as placeholders. */
function normalize(t: Table): Table {
  const ages = new Set(
    t.columnDefinitions.flatMap((c, i) => (["Age", "Last Seen", "First Seen", "Duration"].includes(c.name) ? [i] : [])),
  );
  return {
    columnDefinitions: t.columnDefinitions,
    rows: t.rows.map((r) => ({
      cells: r.cells.map((cell, i) =>
        typeof cell !== "string"
          ? cell
          : ages.has(i) && age.test(cell)
            ? "<age>"
            : cell.replace(/\(\w+ ago\)/, "(<age> ago)").replace(uid, "<uid>"),
      ),
      conditions: r.conditions ?? null,
    })),
  };
}

/** The same for kubectl's text: columns re-spaced, ages and uids as placeholders. */
function normalizeText(text: string): string[][] {
  return text
    .trimEnd()
    .split("\n")
    .map((line) =>
      line
        .replace(uid, "<uid>")
        .replace(/\(\w+ ago\)/, "(<age>-ago)")
        .split(/\s{2,}/)
        .map((cell) => (age.test(cell) ? "<age>" : cell)),
    );
}

function pathOf(obj: { apiVersion: string; kind: string }): string {
  const [group, version] = obj.apiVersion.includes("/") ? obj.apiVersion.split("/") : ["", obj.apiVersion];
  const record = kinds.find((k) => k.group === group && k.version === version && k.kind === obj.kind);
  if (record?.resource === undefined) throw new Error(`${obj.apiVersion} ${obj.kind} is not served`);
  const prefix = group === "" ? `api/${version}` : `apis/${group}/${version}`;
  const namespace = record.resource.scope === "Namespaced" ? `/namespaces/${ns}` : "";
  return `${prefix}${namespace}/${record.resource.plural}`;
}

describe("tables of built-in kinds as kube-apiserver prints them", () => {
  let session: KubectlSession;
  const call = async (method: string, path: string, body?: unknown, accept = "application/json") => {
    const res = await session.server.request({
      method,
      path: `/${path}`,
      headers: { authorization: `Bearer ${session.server.adminToken}`, accept },
      ...(body === undefined ? {} : { body: body as object }),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return JSON.parse(text) as Record<string, unknown>;
  };

  beforeAll(async () => {
    session = await startKubectlSession({
      controllers: false,
      // No serviceaccount controller runs, so no `default` ServiceAccount exists to admit pods with.
      admission: { disablePlugins: ["ServiceAccount"] },
    });
    await call("POST", "api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: ns } });
    for (const doc of parseAllDocuments(read("objects.yaml"))) {
      const obj = doc.toJSON() as { apiVersion: string; kind: string };
      await call("POST", pathOf(obj), obj);
    }
    const pod = await call("GET", `api/v1/namespaces/${ns}/pods/c-pod`);
    const status = JSON.parse(read("pod-status.json"));
    await call("PUT", `api/v1/namespaces/${ns}/pods/c-pod/status`, { ...pod, status });
  });
  afterAll(() => session.close());

  for (const { prefix, resource, name, file } of listed) {
    const list = name === undefined ? `${prefix}/namespaces/${ns}/${resource}` : `${prefix}/${resource}`;
    const query = name === undefined ? "" : `?fieldSelector=metadata.name%3D${name}`;

    it(`answers ${file} as a Table as the reference does`, async () => {
      const answer = (await call("GET", `${list}${query}`, undefined, tableType)) as unknown as Table;
      const recorded = JSON.parse(read(`${file}.json`)) as Table;
      expect(recorded.rows.length).toBeGreaterThan(0);
      expect(normalize(answer)).toEqual(normalize(recorded));
    });

    it(`prints ${file} with kubectl get, plain and wide, as the reference does`, async () => {
      const [group, version] = prefix.startsWith("apis/") ? prefix.slice(5).split("/") : ["", prefix.slice(4)];
      const type = group === "" ? resource : `${resource}.${version}.${group}`;
      const args = name === undefined ? [type, "-n", ns] : [type, name];
      expect(normalizeText(await session.kubectl("get", ...args))).toEqual(normalizeText(read(`${file}.txt`)));
      expect(normalizeText(await session.kubectl("get", ...args, "-o", "wide"))).toEqual(
        normalizeText(read(`${file}.wide.txt`)),
      );
    });
  }
});
