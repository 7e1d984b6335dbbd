// The first document of a YAML body decoded as kube decodes it (go-yaml v2 into interface{}, then
// sigs.k8s.io/yaml and encoding/json), straight from the parser's events into the JSON value. go-yaml first
// builds a tree of every node; here only nodes that may be decoded again are kept (those carrying an anchor,
// and merge lists, which merge last to first), so a large body costs little more than its value. go-yaml
// parses the whole document before decoding it, so a decoding error is held until the parser has read to
// the document's end: a syntax error or an unknown anchor later in the text is what kube reports.
import { maxJsonDepth } from "../json-body.js";
import {
  containsItself,
  DecodeState,
  isMergeKey,
  type MapBuilder,
  mergeRequiresMap,
  newBuilder,
  TreeDecoder,
  type YamlNode,
} from "./yaml-decoder.js";
import { YamlDecodeError } from "./yaml-error.js";
import { EventParser, type YamlEvent } from "./yaml-events.js";
import type { YamlInput } from "./yaml-input.js";
import type { GoScalar } from "./yaml-resolve.js";
import { YamlScanner } from "./yaml-scanner.js";

export interface DecodedYaml {
  value: unknown;
  /** Repeated keys in go-yaml's strict words, `line 5: key "name" already set in map`, in its order. */
  duplicates: string[];
  /** The deepest nesting of objects and arrays in the value (the top one is 1). */
  depth: number;
}

/** A mapping being built; one merged into another (`<<: {…}`) adds to that one's map instead. */
interface OpenMap {
  kind: "map";
  builder: MapBuilder;
  owned: boolean;
  awaiting: "key" | "value" | "merge";
  key?: string | GoScalar;
  line: number;
}

interface OpenSequence {
  kind: "sequence";
  items: unknown[];
  depth: number;
  line: number;
}

type Open = OpenMap | OpenSequence;

/** Scalars and aliases share one empty list of children. */
const noChildren: YamlNode[] = [];

function recordedNode(e: YamlEvent, target?: YamlNode): YamlNode {
  const container = e.type === "sequence-start" || e.type === "mapping-start";
  const kind =
    e.type === "alias"
      ? "alias"
      : e.type === "scalar"
        ? "scalar"
        : e.type === "sequence-start"
          ? "sequence"
          : "mapping";
  const node: YamlNode = {
    kind,
    line: e.start,
    tag: e.tag,
    value: e.type === "alias" ? e.anchor : e.value,
    implicit: e.implicit,
    children: container ? [] : noChildren,
    complete: !container,
  };
  if (target !== undefined) node.target = target;
  return node;
}

class DocumentDecoder {
  readonly state = new DecodeState();
  private readonly tree = new TreeDecoder(this.state);
  private readonly anchors = new Map<string, YamlNode>();
  private readonly open: Open[] = [];
  /** The recorded nodes still open, innermost last. */
  private readonly recording: YamlNode[] = [];
  /** A merge list being recorded: what it holds is decoded when it ends, not as it comes. */
  private mergeList: YamlNode | undefined;
  /** The first decoding error, reported once the whole document has parsed. */
  failure: YamlDecodeError | undefined;
  value: unknown = null;

  /** Handles one event of the document's content. */
  event(e: YamlEvent): void {
    if (e.type === "sequence-end" || e.type === "mapping-end") {
      this.end();
      return;
    }
    let target: YamlNode | undefined;
    if (e.type === "alias") {
      // An unknown anchor is a parsing error in go-yaml: it is reported at once.
      target = this.anchors.get(e.anchor);
      if (target === undefined) throw new YamlDecodeError(`yaml: unknown anchor '${e.anchor}' referenced`);
    }
    const top = this.open.at(-1);
    const startsMergeList =
      this.mergeList === undefined && top?.kind === "map" && top.awaiting === "merge" && e.type === "sequence-start";
    let node: YamlNode | undefined;
    const anchored = e.anchor !== "" && e.type !== "alias";
    if (this.failure === undefined && (this.recording.length > 0 || anchored || startsMergeList)) {
      node = recordedNode(e, target);
      this.recording.at(-1)?.children.push(node);
      if (!node.complete) this.recording.push(node);
      if (startsMergeList) this.mergeList = node;
    }
    if (anchored) this.anchors.set(e.anchor, node ?? recordedNode(e));
    if (this.failure !== undefined || this.mergeList !== undefined) return;
    try {
      this.decode(e, target);
    } catch (error) {
      this.hold(error);
    }
  }

  private decode(e: YamlEvent, target: YamlNode | undefined): void {
    const state = this.state;
    const top = this.open.at(-1);
    if (
      top?.kind === "map" &&
      top.awaiting === "key" &&
      e.type === "scalar" &&
      isMergeKey(e.tag, e.value, e.implicit)
    ) {
      // The merge key itself is not decoded; its value is merged into this map.
      top.awaiting = "merge";
      return;
    }
    if (top?.kind === "map" && top.awaiting === "merge") {
      this.merge(top, e, target);
      return;
    }
    const role = top?.kind === "map" && top.awaiting === "key" ? "key" : "value";
    const depth = top === undefined ? 1 : (top.kind === "map" ? top.builder.depth : top.depth) + 1;
    switch (e.type) {
      case "scalar":
        state.count();
        this.deliver(state.scalar(e.tag, e.value, e.implicit, role), e.start);
        return;
      case "alias":
        this.deliver(this.tree.decode(aliasNode(e, target as YamlNode), role, undefined, depth), e.start);
        return;
      case "sequence-start":
        state.count();
        state.reached(depth);
        this.open.push({ kind: "sequence", items: [], depth, line: e.start });
        return;
      default:
        state.count();
        state.reached(depth);
        this.open.push({ kind: "map", builder: newBuilder(depth), owned: true, awaiting: "key", line: e.start });
    }
  }

  /** The value after `<<`: a map, an alias of one, or a list of those (recorded, see `event`). */
  private merge(top: OpenMap, e: YamlEvent, target: YamlNode | undefined): void {
    if (e.type === "mapping-start") {
      this.state.count();
      this.open.push({ kind: "map", builder: top.builder, owned: false, awaiting: "key", line: e.start });
      return;
    }
    if (e.type !== "alias" || target?.kind !== "mapping") throw mergeRequiresMap();
    this.tree.decode(aliasNode(e, target), "value", top.builder, top.builder.depth);
    top.awaiting = "key";
  }

  private end(): void {
    if (this.failure !== undefined) return;
    const node = this.recording.pop();
    if (node !== undefined) node.complete = true;
    if (node !== undefined && node === this.mergeList) {
      this.mergeList = undefined;
      const top = this.open.at(-1) as OpenMap;
      try {
        this.tree.mergeList(node, top.builder);
        top.awaiting = "key";
      } catch (error) {
        this.hold(error);
      }
      return;
    }
    if (this.mergeList !== undefined) return;
    const done = this.open.pop() as Open;
    try {
      if (done.kind === "sequence") this.deliver(done.items, done.line);
      else if (done.owned) this.deliver(this.state.finish(done.builder), done.line);
      else (this.open.at(-1) as OpenMap).awaiting = "key";
    } catch (error) {
      this.hold(error);
    }
  }

  /** Holds a decoding error back until the document has been parsed; anything else is no refusal. */
  private hold(error: unknown): void {
    if (!(error instanceof YamlDecodeError)) throw error;
    this.failure = error;
  }

  /** Hands a finished value (starting at `line`) to the collection it belongs to. */
  private deliver(value: unknown, line: number): void {
    const top = this.open.at(-1);
    if (top === undefined) {
      this.value = value;
    } else if (top.kind === "sequence") {
      top.items.push(value);
    } else if (top.awaiting === "key") {
      top.key = this.state.key(value);
      top.awaiting = "value";
    } else {
      this.state.set(top.builder, top.key as string | GoScalar, value, line);
      top.awaiting = "key";
    }
  }
}

/** The node for an alias met in the stream, to decode what it names. */
function aliasNode(e: YamlEvent, target: YamlNode): YamlNode {
  if (!target.complete) throw containsItself(e.anchor);
  return {
    kind: "alias",
    line: e.start,
    tag: "",
    value: e.anchor,
    implicit: false,
    children: noChildren,
    target,
    complete: true,
  };
}

/** The first NaN or infinity in encoding/json's order, as its error names it. */
function firstNonFinite(value: unknown): string | undefined {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const v = pending.pop();
    if (typeof v === "number" && !Number.isFinite(v)) return Number.isNaN(v) ? "NaN" : v > 0 ? "+Inf" : "-Inf";
    if (typeof v !== "object" || v === null) continue;
    const children = Array.isArray(v) ? v : Object.values(v as Record<string, unknown>);
    for (let i = children.length - 1; i >= 0; i--) pending.push(children[i]);
  }
  return undefined;
}

/**
 * Decodes the first document of the text as kube's YAML-to-JSON step does; null when there is none (later
 * documents are not read, as go-yaml's Unmarshal stops after the first). Throws a YamlSyntaxError or a
 * YamlDecodeError in go-yaml's, sigs.k8s.io/yaml's or encoding/json's words.
 */
export function decodeFirstDocument(input: YamlInput): DecodedYaml {
  const parser = new EventParser(new YamlScanner(input));
  parser.next();
  if (parser.next().type !== "document-start") return { value: null, duplicates: [], depth: 0 };
  const decoder = new DocumentDecoder();
  // The document node counts as a decode step of its own.
  decoder.state.count();
  // go-yaml reads the document's end before it decodes: a broken token right after the content still fails.
  for (let e = parser.next(); e.type !== "document-end"; e = parser.next()) decoder.event(e);
  if (decoder.failure !== undefined) throw decoder.failure;
  const { state, value } = decoder;
  if (state.unusableKey !== undefined) throw new YamlDecodeError(state.unusableKey);
  const nonFinite = state.nonFinite ? firstNonFinite(value) : undefined;
  if (nonFinite !== undefined) throw new YamlDecodeError(`json: unsupported value: ${nonFinite}`);
  return { value, duplicates: state.duplicates, depth: state.depth };
}

/**
 * The opening character of the first container nested deeper than encoding/json allows, which kube meets
 * when it reads the converted document's kind; undefined when the value is within the limit.
 */
export function jsonTooDeep(decoded: DecodedYaml): string | undefined {
  if (decoded.depth <= maxJsonDepth) return undefined;
  const pending: [unknown, number][] = [[decoded.value, 1]];
  while (pending.length > 0) {
    const [v, depth] = pending.pop() as [unknown, number];
    if (typeof v !== "object" || v === null) continue;
    if (depth > maxJsonDepth) return Array.isArray(v) ? "[" : "{";
    const children = Array.isArray(v) ? v : Object.values(v as Record<string, unknown>);
    for (let i = children.length - 1; i >= 0; i--) pending.push([children[i], depth + 1]);
  }
  return undefined;
}
