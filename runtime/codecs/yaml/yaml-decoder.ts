// How go-yaml v2 decodes YAML into interface{} and sigs.k8s.io/yaml turns that into JSON, for kube's YAML
// request bodies: scalars resolved, aliases decoded again as copies of what they name and counted against
// go-yaml's rule for excessive aliasing, `<<` merging maps in (the earlier maps of a merge list winning),
// repeated keys noted as go-yaml's strict mode reports them, keys turned into strings (1 into "1", true into
// "true"; null and big unsigned keys cannot be), and NaN and infinities refused as encoding/json refuses them.
// DecodeState holds what a whole document shares; TreeDecoder decodes recorded nodes (what an alias names, a
// merge list) with a stack of its own, so values nested 10,000 deep cost no call stack.
import { goQuote } from "../../errors/go-format.js";
import { setKey } from "../parsed-body.js";
import { compareKeys } from "../protobuf/encode-message.js";
import { goFormatFloat, goScalarText, goValueText } from "./go-value-text.js";
import { YamlDecodeError } from "./yaml-error.js";
import { type GoScalar, resolveScalar, yamlTags } from "./yaml-resolve.js";

/** A node kept for decoding again: one that carries an anchor, or a merge list. */
export interface YamlNode {
  kind: "scalar" | "sequence" | "mapping" | "alias";
  /** 0-based line where the node starts. */
  line: number;
  /** The resolved tag (`tag:yaml.org,2002:str`, `!local`); empty when the node has none. */
  tag: string;
  /** A scalar's text, an alias's anchor name. */
  value: string;
  /** A plain scalar without a tag (or with `!`): its type comes from its text. */
  implicit: boolean;
  /** Items; for a mapping, keys and values in turn. */
  children: YamlNode[];
  /** What an alias refers to. */
  target?: YamlNode;
  /** Whether the node's end has been read; an alias to a node still open names its own ancestor. */
  complete: boolean;
}

/**
 * A map under construction, go-yaml's map[interface{}]interface{}: string keys (nearly all) straight into the
 * JSON object, other keys by Go type and value until sigs.k8s.io/yaml turns them into strings.
 */
export interface MapBuilder {
  object: Record<string, unknown>;
  /** Whether the string keys came in encoding/json's order, so that the object needs no reordering. */
  ordered: boolean;
  last: string | undefined;
  others: Map<string, { key: GoScalar; value: unknown }> | undefined;
  /** The JSON depth of the object (the top one is 1). */
  depth: number;
}

export function newBuilder(depth: number): MapBuilder {
  return { object: {}, ordered: true, last: undefined, others: undefined, depth };
}

/** A scalar decoded as a map key other than a string, which keeps its Go type (1 and "1" differ). */
class ScalarKey {
  constructor(readonly scalar: GoScalar) {}
}

/** A merge finished: it added to a map and has no value of its own. */
const merged: unique symbol = Symbol("merged");

/** go-yaml's alias rule: past 100 aliases and 1,000 decode steps, the share from aliases may not exceed this. */
function allowedAliasRatio(decodeCount: number): number {
  const low = 400_000;
  const high = 4_000_000;
  if (decodeCount <= low) return 0.99;
  if (decodeCount >= high) return 0.1;
  return 0.99 - 0.89 * ((decodeCount - low) / (high - low));
}

/** Plain scalars starting otherwise are strings whatever follows (go-yaml's resolve table). */
const resolvableStart = /^[-+0-9.yYnNtTfFoO~]/;
/** Plain decimal integers small enough to need no further look (no octal, no underscores, no sign). */
const smallInteger = /^(?:0|[1-9][0-9]{0,14})$/;

export function isMergeKey(tag: string, value: string, implicit: boolean): boolean {
  return value === "<<" && (implicit || tag === yamlTags.merge);
}

export function mergeRequiresMap(): YamlDecodeError {
  return new YamlDecodeError("yaml: map merge requires map or sequence of maps as the value");
}

export function containsItself(name: string): YamlDecodeError {
  return new YamlDecodeError(`yaml: anchor '${name}' value contains itself`);
}

function invalidMapKey(key: unknown): YamlDecodeError {
  return new YamlDecodeError(`yaml: invalid map key: ${goValueText(key)}`);
}

/** What decoding one document shares: go-yaml's counters and strict report, and what the result needs. */
export class DecodeState {
  readonly duplicates: string[] = [];
  /** The deepest nesting of objects and arrays in the value (the top one is 1). */
  depth = 0;
  /** The first key sigs.k8s.io/yaml cannot turn into a string; reported once decoding is done. */
  unusableKey: string | undefined;
  /** Whether a NaN or an infinity was decoded as a value (encoding/json refuses them). */
  nonFinite = false;
  aliasDepth = 0;
  /** The aliases being decoded: meeting one again means it names its own ancestor. */
  readonly expanding = new Set<YamlNode>();
  /** The last key quoted for a report: a body repeating one key many times quotes it once. */
  private quoted: [string | GoScalar, string] | undefined;
  private decodeCount = 0;
  private aliasCount = 0;
  private nanKeys = 0;

  /** go-yaml's bookkeeping for each node it decodes, and its refusal of runaway aliases. */
  count(): void {
    this.decodeCount++;
    if (this.aliasDepth > 0) this.aliasCount++;
    if (
      this.aliasCount > 100 &&
      this.decodeCount > 1000 &&
      this.aliasCount / this.decodeCount > allowedAliasRatio(this.decodeCount)
    ) {
      throw new YamlDecodeError("yaml: document contains excessive aliasing");
    }
  }

  reached(depth: number): void {
    if (depth > this.depth) this.depth = depth;
  }

  /** A scalar as a value, or as a key (a string, or a ScalarKey for any other type). */
  scalar(tag: string, text: string, implicit: boolean, role: "key" | "value"): unknown {
    if (tag === "" && (!implicit || (text !== "" && !resolvableStart.test(text)))) return text;
    if (tag === "" && role === "value" && smallInteger.test(text)) return Number(text);
    const scalar = resolveScalar(tag, text, implicit);
    if (role === "key") return scalar.type === "string" ? scalar.value : new ScalarKey(scalar);
    switch (scalar.type) {
      case "int":
      case "uint":
        return Number(scalar.value);
      case "float":
        if (!Number.isFinite(scalar.value)) this.nonFinite = true;
        return scalar.value;
      default:
        return scalar.value;
    }
  }

  /** A decoded key as a map takes it; a map or a list cannot be one. */
  key(step: unknown): string | GoScalar {
    if (typeof step === "string") return step;
    if (step instanceof ScalarKey) return step.scalar;
    throw invalidMapKey(step);
  }

  /** go-yaml's setMapIndex: the last value wins, and strict mode reports the repeat at the value's line. */
  set(into: MapBuilder, key: string | GoScalar, value: unknown, line: number): void {
    let repeated: boolean;
    if (typeof key === "string") {
      repeated = Object.hasOwn(into.object, key);
      if (!repeated) {
        if (into.last !== undefined && compareKeys(into.last, key) > 0) into.ordered = false;
        into.last = key;
      }
      setKey(into.object, key, value);
    } else {
      // NaN is never equal to itself: each NaN key is a key of its own.
      const id = key.type === "float" && Number.isNaN(key.value) ? `nan:${this.nanKeys++}` : `${key.type}:${key.value}`;
      into.others ??= new Map();
      repeated = into.others.has(id);
      into.others.set(id, { key, value });
    }
    if (repeated) this.duplicates.push(`line ${line + 1}: key ${this.keyText(key)} already set in map`);
  }

  private keyText(key: string | GoScalar): string {
    if (this.quoted?.[0] !== key) this.quoted = [key, typeof key === "string" ? goQuote(key) : goScalarText(key)];
    return this.quoted[1];
  }

  /** The map as JSON: keys made strings as sigs.k8s.io/yaml makes them, in encoding/json's (byte) order. */
  finish(builder: MapBuilder): Record<string, unknown> {
    if (builder.others === undefined && builder.ordered) return builder.object;
    const pairs = new Map<string, unknown>(Object.entries(builder.object));
    for (const { key, value } of builder.others?.values() ?? []) {
      const text = keyString(key);
      if (text === undefined) this.unusableKey ??= unusableKeyMessage(key, value);
      else pairs.set(text, value);
    }
    const out: Record<string, unknown> = {};
    for (const text of [...pairs.keys()].sort(compareKeys)) setKey(out, text, pairs.get(text));
    return out;
  }
}

/** sigs.k8s.io/yaml's string for a map key; undefined for the keys it cannot use. */
function keyString(key: GoScalar): string | undefined {
  switch (key.type) {
    case "string":
      return key.value;
    case "int":
      return key.value.toString();
    case "bool":
      return String(key.value);
    case "float": {
      const text = goFormatFloat(key.value, 32);
      return text === "+Inf" ? ".inf" : text === "-Inf" ? "-.inf" : text === "NaN" ? ".nan" : text;
    }
    default:
      return undefined;
  }
}

function unusableKeyMessage(key: GoScalar, value: unknown): string {
  const type = key.type === "null" ? "%!s(<nil>)" : "uint64";
  return `unsupported map key of type: ${type}, key: ${goScalarText(key)}, value: ${goValueText(value)}`;
}

/** A mapping being decoded; `owned` when it builds its own map rather than merging into another. */
interface MapFrame {
  kind: "map";
  node: YamlNode;
  into: MapBuilder;
  owned: boolean;
  /** The index in `node.children` of the key of the pair being decoded. */
  at: number;
  /** What the value delivered next is: a key, a value, the end of a merge, or nothing (the frame is new). */
  awaiting: "key" | "value" | "merge" | "nothing";
  key?: string | GoScalar;
}

interface SequenceFrame {
  kind: "sequence";
  node: YamlNode;
  items: unknown[];
  depth: number;
}

interface AliasFrame {
  kind: "alias";
  node: YamlNode;
}

/** `<<: [*a, *b]`: the maps merged last to first, so that the earlier ones win. */
interface MergeListFrame {
  kind: "merge-list";
  node: YamlNode;
  into: MapBuilder;
  next: number;
}

type Frame = MapFrame | SequenceFrame | AliasFrame | MergeListFrame;

/** A frame was just pushed: it starts on its next turn. */
const pushed: unique symbol = Symbol("pushed");

function isMapping(node: YamlNode): boolean {
  return (node.kind === "alias" ? node.target : node)?.kind === "mapping";
}

/** Decodes recorded nodes as go-yaml decodes its node tree, one step at a time on a stack of its own. */
export class TreeDecoder {
  private readonly stack: Frame[] = [];

  constructor(private readonly state: DecodeState) {}

  /**
   * Decodes `node` (an alias, as the streaming decoder meets them) at JSON depth `depth`, as a key or a value,
   * or merged `into` a map. Returns the value, a key (string or ScalarKey), or `merged`.
   */
  decode(node: YamlNode, role: "key" | "value", into: MapBuilder | undefined, depth: number): unknown {
    let step = this.begin(node, role, into, depth);
    for (;;) {
      const top = this.stack.at(-1);
      if (top === undefined) return step;
      step = this.advance(top, step);
    }
  }

  /** go-yaml's merge of a list of maps into `into`, the list being recorded rather than decoded as a value. */
  mergeList(list: YamlNode, into: MapBuilder): void {
    this.stack.push({ kind: "merge-list", node: list, into, next: list.children.length - 1 });
    let step: unknown = pushed;
    for (let top = this.stack.at(-1); top !== undefined; top = this.stack.at(-1)) step = this.advance(top, step);
  }

  /** Starts decoding `node`: a scalar's value at once, otherwise `pushed`. */
  private begin(node: YamlNode, role: "key" | "value", into: MapBuilder | undefined, depth: number): unknown {
    const state = this.state;
    state.count();
    switch (node.kind) {
      case "scalar":
        return state.scalar(node.tag, node.value, node.implicit, role);
      case "alias": {
        const target = node.target as YamlNode;
        if (state.expanding.has(node) || !target.complete) throw containsItself(node.value);
        state.expanding.add(node);
        state.aliasDepth++;
        this.stack.push({ kind: "alias", node });
        return this.begin(target, role, into, depth);
      }
      case "sequence":
        state.reached(depth);
        this.stack.push({ kind: "sequence", node, items: [], depth });
        return pushed;
      case "mapping":
        if (into === undefined) state.reached(depth);
        this.stack.push({
          kind: "map",
          node,
          into: into ?? newBuilder(depth),
          owned: into === undefined,
          at: 0,
          awaiting: "nothing",
        });
        return pushed;
    }
  }

  /** Gives the top frame the value it was waiting for (`pushed` when it has just started) and moves it on. */
  private advance(top: Frame, step: unknown): unknown {
    switch (top.kind) {
      case "alias":
        this.stack.pop();
        this.state.aliasDepth--;
        this.state.expanding.delete(top.node);
        return step;
      case "sequence":
        if (step !== pushed) top.items.push(step);
        if (top.items.length < top.node.children.length) {
          return this.begin(top.node.children[top.items.length] as YamlNode, "value", undefined, top.depth + 1);
        }
        this.stack.pop();
        return top.items;
      case "merge-list": {
        if (top.next < 0) {
          this.stack.pop();
          return merged;
        }
        const item = top.node.children[top.next--] as YamlNode;
        if (!isMapping(item)) throw mergeRequiresMap();
        return this.begin(item, "value", top.into, top.into.depth);
      }
      case "map":
        return this.mapStep(top, step);
    }
  }

  private mapStep(top: MapFrame, step: unknown): unknown {
    const children = top.node.children;
    switch (top.awaiting) {
      case "key":
        top.key = this.state.key(step);
        top.awaiting = "value";
        return this.begin(children[top.at + 1] as YamlNode, "value", undefined, top.into.depth + 1);
      case "value": {
        const valueNode = children[top.at + 1] as YamlNode;
        this.state.set(top.into, top.key as string | GoScalar, step, valueNode.line);
        top.at += 2;
        break;
      }
      case "merge":
        top.at += 2;
        break;
      case "nothing":
        break;
    }
    if (top.at >= children.length) {
      this.stack.pop();
      return top.owned ? this.state.finish(top.into) : merged;
    }
    const key = children[top.at] as YamlNode;
    const value = children[top.at + 1] as YamlNode;
    if (key.kind === "scalar" && isMergeKey(key.tag, key.value, key.implicit)) {
      top.awaiting = "merge";
      if (value.kind === "sequence") {
        this.stack.push({ kind: "merge-list", node: value, into: top.into, next: value.children.length - 1 });
        return pushed;
      }
      if (!isMapping(value)) throw mergeRequiresMap();
      return this.begin(value, "value", top.into, top.into.depth);
    }
    top.awaiting = "key";
    return this.begin(key, "key", undefined, top.into.depth + 1);
  }
}
