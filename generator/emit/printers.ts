// generated/printers.ts: the printer cells schemas name (`cell: pod.ready`), by name, from the modules under
// runtime/printers/, so the table convertor reaches kind-specific cells without naming a kind. Referencing each
// cell as a property of its module's `cells` lets the typecheck refuse a cell the module does not export.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { SchemaSet } from "../schema/schema-set.js";
import { type EmitResult, type Emitter, generatedHeader } from "./emitter.js";
import { apiVersionOf, camelCase } from "./naming.js";
import { Code, tsLiteral } from "./ts-literal.js";

export const printersPath = "printers.ts";

export interface PrintersEmitterOptions {
  /** Whether runtime/printers/<module>.ts exists: a cell of a missing module gets a note, not an import. */
  moduleExists(module: string): boolean;
}

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));

/** `<module>.<cell>`: a kebab-case module under runtime/printers/ and a camelCase cell it exports. */
export const cellNamePattern = /^([a-z][a-z0-9]*(?:-[a-z0-9]+)*)\.([a-z][A-Za-z0-9]*)$/;

function moduleBinding(module: string): string {
  return `${camelCase(module)}Cells`;
}

export function createPrintersEmitter(options: PrintersEmitterOptions): Emitter {
  return {
    name: "printers",
    emit(set: SchemaSet): EmitResult {
      const notes: string[] = [];
      const cells = new Map<string, { module: string; cell: string }>();
      const sources = new Set<string>();
      for (const info of set.kinds()) {
        for (const column of info.entry.resource?.printerColumns ?? []) {
          if (column.cell === undefined) continue;
          sources.add(info.file.path);
          const match = cellNamePattern.exec(column.cell);
          const [, module = "", cell = ""] = match ?? [];
          const where = `${apiVersionOf(info.gvk.group, info.gvk.version)} ${info.gvk.kind}: column ${column.name}`;
          if (!match) notes.push(`${where}: cell ${column.cell} is not <module>.<cell>`);
          else if (!options.moduleExists(module)) {
            notes.push(`${where}: printer module runtime/printers/${module}.ts does not exist`);
          } else cells.set(column.cell, { module, cell });
        }
      }
      const names = [...cells.keys()].sort();
      const modules = [...new Set(names.map((n) => cells.get(n)?.module ?? ""))].sort();
      const content =
        generatedHeader([...sources].sort()) +
        `import type { PrinterCell } from "../runtime/printers/printer-cell.js";\n` +
        modules.map((m) => `import { cells as ${moduleBinding(m)} } from "../runtime/printers/${m}.js";\n`).join("") +
        `\nexport const printerCells: Readonly<Record<string, PrinterCell>> = ${tsLiteral(
          Object.fromEntries(
            names.map((n) => {
              const { module, cell } = cells.get(n) ?? { module: "", cell: "" };
              return [n, new Code(`${moduleBinding(module)}.${cell}`)];
            }),
          ),
        )};\n`;
      return { files: [{ path: printersPath, content }], notes };
    },
  };
}

export const printersEmitter: Emitter = createPrintersEmitter({
  moduleExists: (module) => existsSync(join(repoRoot, "runtime", "printers", `${module}.ts`)),
});
