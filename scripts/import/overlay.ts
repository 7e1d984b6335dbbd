// kapi's own facts about built-in kinds that the upstream OpenAPI documents do not carry: defaults and
// enumerations coded in Go, name formats, printer columns, selectable fields, strategy modules.
import type { KindEntry, SchemaFile, SchemaNode } from "../../generator/schema/model.js";

export interface OverlayFile {
  kinds?: Record<string, Partial<KindEntry>>;
  definitions?: Record<string, SchemaNode>;
  lifecycle?: SchemaFile["lifecycle"];
}

export type Overlay = Record<string, OverlayFile>;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Objects merge key by key; anything else in the overlay replaces what was imported. */
export function deepMerge(base: Record<string, unknown>, patch: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(patch)) {
    const current = base[key];
    if (isPlainObject(current) && isPlainObject(value)) deepMerge(current, value);
    else base[key] = structuredClone(value);
  }
}

export function applyOverlay(files: Map<string, SchemaFile>, overlay: Overlay): string[] {
  const problems: string[] = [];
  for (const [fileId, patch] of Object.entries(overlay ?? {})) {
    const file = files.get(fileId);
    if (!file) {
      problems.push(`overlay: no schema file ${fileId}`);
      continue;
    }
    if (patch.lifecycle) file.lifecycle = patch.lifecycle;
    // A kind or definition the import lacks is added (Table is in neither OpenAPI nor generated.proto).
    for (const [kind, kindPatch] of Object.entries(patch.kinds ?? {})) {
      file.kinds ??= [];
      let entry = file.kinds.find((k) => k.kind === kind);
      if (!entry) {
        entry = { kind };
        file.kinds.push(entry);
        file.kinds.sort((a, b) => a.kind.localeCompare(b.kind));
      }
      deepMerge(entry as unknown as Record<string, unknown>, kindPatch as Record<string, unknown>);
    }
    for (const [name, defPatch] of Object.entries(patch.definitions ?? {})) {
      file.definitions[name] ??= {};
      deepMerge(file.definitions[name] as Record<string, unknown>, defPatch as Record<string, unknown>);
    }
    file.definitions = Object.fromEntries(Object.entries(file.definitions).sort(([a], [b]) => a.localeCompare(b)));
  }
  return problems;
}
