import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { generateFrom } from "../../../generator/generate.js";
import { loadSchemaSet } from "../../../generator/schema/schema-set.js";
import { validateSchemaSet } from "../../../generator/validate/validate-schemas.js";
import { pluralOf, runScaffoldCommand } from "../../../runtime/cli/scaffold-command.js";

const metaSchemas = fileURLToPath(new URL("../../../schemas/meta", import.meta.url));

describe("kapi new-group", () => {
  let dir: string;
  let output: string[];

  const scaffold = (...args: string[]) => runScaffoldCommand([...args, "--schemas-dir", dir]);

  beforeEach(() => {
    // The shared definitions every schema refers to, and nothing else: the new file must stand on them alone.
    dir = mkdtempSync(join(tmpdir(), "kapi-scaffold-"));
    cpSync(metaSchemas, join(dir, "meta"), { recursive: true });
    output = [];
    const record = (...parts: unknown[]) => {
      output.push(parts.join(" "));
    };
    vi.spyOn(console, "log").mockImplementation(record);
    vi.spyOn(console, "error").mockImplementation(record);
  });

  afterEach(() => {
    vi.restoreAllMocks();
    rmSync(dir, { recursive: true, force: true });
  });

  it("writes a starter file the generator validates and emits, protobuf and CEL rules included", async () => {
    expect(await scaffold("gadgets.example.com/v1alpha1", "--kind", "Gadget")).toBe(0);
    const path = join(dir, "gadgets.example.com/v1alpha1.yaml");
    expect(output.join("\n")).toContain("kapi serve --runtime-config=gadgets.example.com/v1alpha1=true");

    const set = loadSchemaSet(dir);
    expect(await validateSchemaSet(set)).toEqual([]);
    const result = await generateFrom(set);
    expect(result.errors).toEqual([]);
    const paths = result.files.map((f) => f.path);
    expect(paths).toContain("gadgets.example.com/v1alpha1/types.ts");
    expect(paths).toContain("proto/gadgets.example.com/v1alpha1.proto");

    const text = readFileSync(path, "utf8");
    expect(text).toContain("stability: alpha\n");
    expect(text).toContain("enabledByDefault: false\n");
    expect(text).toContain("package: com.example.gadgets.v1alpha1\n");
    expect(text).toContain("plural: gadgets\n");
    expect(text).toContain("scope: Namespaced\n");
    expect(text).toContain("storageVersion: true\n");
    const proto = result.files.find((f) => f.path === "proto/gadgets.example.com/v1alpha1.proto")?.content;
    expect(proto).toContain("message GadgetSpec {\n  optional string message = 1;\n}");
  });

  it("scaffolds a cluster-scoped stable kind, served by default, with a protobuf-safe package name", async () => {
    expect(await scaffold("my-things.example.org/v1", "--kind=Policy", "--cluster")).toBe(0);
    const text = readFileSync(join(dir, "my-things.example.org/v1.yaml"), "utf8");
    expect(text).toContain("scope: Cluster\n");
    expect(text).toContain("plural: policies\n");
    expect(text).toContain("enabledByDefault: true\n");
    expect(text).toContain("package: org.example.my_things.v1\n");
    expect(text).toContain("prefix: org.example.my-things.v1\n");
    expect(await validateSchemaSet(loadSchemaSet(dir))).toEqual([]);
  });

  it("adds a version to a group it scaffolded: same group priority, the next version, one storage version", async () => {
    expect(await scaffold("gadgets.example.com/v1alpha1", "--kind", "Gadget")).toBe(0);
    expect(await scaffold("gadgets.example.com/v1", "--kind", "Gadget")).toBe(0);
    const first = readFileSync(join(dir, "gadgets.example.com/v1alpha1.yaml"), "utf8");
    const second = readFileSync(join(dir, "gadgets.example.com/v1.yaml"), "utf8");
    expect(first).toContain("priority:\n  group: 0\n  version: 0\n");
    expect(second).toContain("priority:\n  group: 0\n  version: 1\n");
    expect(second).not.toContain("storageVersion");
    const result = await generateFrom(loadSchemaSet(dir));
    expect(result.errors).toEqual([]);
    // Same shapes in both versions: every conversion is generated field by field, none is missing.
    expect(result.notes.filter((n) => n.startsWith("conversions:"))).toEqual([]);
    expect(result.files.map((f) => f.path)).toContain("gadgets.example.com/conversions.ts");
  });

  it("scaffolds next to a file that does not parse, leaving that one to the generator", async () => {
    mkdirSync(join(dir, "broken.example.com"));
    writeFileSync(join(dir, "broken.example.com/v1.yaml"), "group: [\n");
    expect(await scaffold("gadgets.example.com/v1", "--kind", "Gadget")).toBe(0);
    expect(readFileSync(join(dir, "gadgets.example.com/v1.yaml"), "utf8")).toContain("kind: Gadget\n");
  });

  it("refuses to overwrite an existing file", async () => {
    const path = join(dir, "gadgets.example.com/v1.yaml");
    expect(await scaffold("gadgets.example.com/v1", "--kind", "Gadget")).toBe(0);
    writeFileSync(path, "# edited\n");
    expect(await scaffold("gadgets.example.com/v1", "--kind", "Other")).toBe(1);
    expect(readFileSync(path, "utf8")).toBe("# edited\n");
    expect(output.at(-1)).toMatch(/gadgets\.example\.com\/v1\.yaml already exists; not overwriting it$/);
  });

  it.each([
    [["gadgets.example.com/v1"], "missing --kind"],
    [["--kind", "Gadget"], "missing <group>/<version>"],
    [["apps/v1", "--kind", "Gadget"], 'group "apps" must be a lowercase DNS subdomain with at least one dot'],
    [["gadgets.example.com/1", "--kind", "Gadget"], 'version "1" must be v<N>, v<N>alpha<M> or v<N>beta<M>'],
    [["gadgets.example.com/v1", "--kind", "gadget"], 'kind "gadget" must be CamelCase (Widget)'],
    [["gadgets.example.com/v1", "--kind", "Gadget", "--cluster", "--namespaced"], "exclude each other"],
    [["gadgets.example.com/v1", "--kind"], "--kind needs a value"],
    [["gadgets.example.com/v1", "--kind", "Gadget", "--force"], "unknown flag --force"],
  ])("rejects %j with usage", async (args, message) => {
    expect(await scaffold(...args)).toBe(2);
    expect(output.join("\n")).toContain(message);
    expect(output.join("\n")).toContain("usage: kapi new-group");
    expect(existsSync(join(dir, "gadgets.example.com"))).toBe(false);
  });

  it("guesses plurals as kube's RESTMapper does", () => {
    expect(["widget", "class", "box", "policy", "day", "mesh"].map(pluralOf)).toEqual([
      "widgets",
      "classes",
      "boxes",
      "policies",
      "days",
      "meshes",
    ]);
  });
});
