// The events of a YAML text as go-yaml v2's parser (libyaml's state machine) produces them from the tokens:
// document and collection boundaries, scalars and aliases, with tags resolved through the %TAG directives and
// the same errors at the same places. It keeps its own stack of states, so nesting costs no call stack.
import { YamlSyntaxError } from "./yaml-error.js";
import type { ScalarStyle, Token, YamlScanner } from "./yaml-scanner.js";

type EventType =
  | "stream-start"
  | "stream-end"
  | "document-start"
  | "document-end"
  | "alias"
  | "scalar"
  | "sequence-start"
  | "sequence-end"
  | "mapping-start"
  | "mapping-end";

export interface YamlEvent {
  type: EventType;
  /** 0-based line where the event's node starts. */
  start: number;
  anchor: string;
  tag: string;
  value: string;
  implicit: boolean;
  style: ScalarStyle;
}

type State =
  | "stream-start"
  | "implicit-document-start"
  | "document-start"
  | "document-content"
  | "document-end"
  | "block-node"
  | "block-sequence-first-entry"
  | "block-sequence-entry"
  | "indentless-sequence-entry"
  | "block-mapping-first-key"
  | "block-mapping-key"
  | "block-mapping-value"
  | "flow-sequence-first-entry"
  | "flow-sequence-entry"
  | "flow-sequence-entry-mapping-key"
  | "flow-sequence-entry-mapping-value"
  | "flow-sequence-entry-mapping-end"
  | "flow-mapping-first-key"
  | "flow-mapping-key"
  | "flow-mapping-value"
  | "flow-mapping-empty-value";

interface TagDirective {
  handle: string;
  prefix: string;
}

const defaultTagDirectives: readonly TagDirective[] = [
  { handle: "!", prefix: "!" },
  { handle: "!!", prefix: "tag:yaml.org,2002:" },
];

/** libyaml's parser: tokens in, events out, one at a time. */
export class EventParser {
  private state: State = "stream-start";
  private readonly states: State[] = [];
  /** The lines where the open collections started, for errors that name them. */
  private readonly marks: number[] = [];
  /** The one event object, refilled for each event: readers take what they need before asking for the next. */
  private readonly current: YamlEvent = {
    type: "stream-start",
    start: 0,
    anchor: "",
    tag: "",
    value: "",
    implicit: false,
    style: "plain",
  };
  private tagDirectives: TagDirective[] = [];

  constructor(private readonly scanner: YamlScanner) {}

  /** The next event; at the stream's end, the end. */
  next(): YamlEvent {
    switch (this.state) {
      case "stream-start":
        return this.streamStart();
      case "implicit-document-start":
        return this.documentStart(true);
      case "document-start":
        return this.documentStart(false);
      case "document-content":
        return this.documentContent();
      case "document-end":
        return this.documentEnd();
      case "block-node":
        return this.node(true, false);
      case "block-sequence-first-entry":
        return this.blockSequenceEntry(true);
      case "block-sequence-entry":
        return this.blockSequenceEntry(false);
      case "indentless-sequence-entry":
        return this.indentlessSequenceEntry();
      case "block-mapping-first-key":
        return this.blockMappingKey(true);
      case "block-mapping-key":
        return this.blockMappingKey(false);
      case "block-mapping-value":
        return this.blockMappingValue();
      case "flow-sequence-first-entry":
        return this.flowSequenceEntry(true);
      case "flow-sequence-entry":
        return this.flowSequenceEntry(false);
      case "flow-sequence-entry-mapping-key":
        return this.flowSequenceEntryMappingKey();
      case "flow-sequence-entry-mapping-value":
        return this.flowSequenceEntryMappingValue();
      case "flow-sequence-entry-mapping-end":
        return this.flowSequenceEntryMappingEnd();
      case "flow-mapping-first-key":
        return this.flowMappingKey(true);
      case "flow-mapping-key":
        return this.flowMappingKey(false);
      case "flow-mapping-value":
        return this.flowMappingValue(false);
      case "flow-mapping-empty-value":
        return this.flowMappingValue(true);
    }
  }

  private get token(): Token {
    return this.scanner.peek();
  }

  private skip(): void {
    this.scanner.skipToken();
  }

  private popState(): void {
    this.state = this.states.pop() as State;
  }

  private event(type: EventType, start: number): YamlEvent {
    const e = this.current;
    e.type = type;
    e.start = start;
    e.anchor = "";
    e.tag = "";
    e.value = "";
    e.implicit = false;
    e.style = "plain";
    return e;
  }

  private error(problem: string, problemLine: number, contextLine?: number): YamlSyntaxError {
    return new YamlSyntaxError("parser", problem, problemLine, contextLine);
  }

  private emptyScalar(line: number): YamlEvent {
    const e = this.event("scalar", line);
    e.implicit = true;
    return e;
  }

  private streamStart(): YamlEvent {
    const token = this.token;
    if (token.type !== "stream-start") throw this.error("did not find expected <stream-start>", token.start);
    this.state = "implicit-document-start";
    this.skip();
    return this.event("stream-start", token.start);
  }

  private documentStart(implicit: boolean): YamlEvent {
    let token = this.token;
    if (!implicit) {
      while (token.type === "document-end") {
        this.skip();
        token = this.token;
      }
    }
    const explicitStart = ["version-directive", "tag-directive", "document-start", "stream-end"];
    if (implicit && !explicitStart.includes(token.type)) {
      this.processDirectives();
      this.states.push("document-end");
      this.state = "block-node";
      return this.event("document-start", token.start);
    }
    if (token.type === "stream-end") {
      this.skip();
      return this.event("stream-end", token.start);
    }
    const start = token.start;
    this.processDirectives();
    token = this.token;
    if (token.type !== "document-start") throw this.error("did not find expected <document start>", token.start);
    this.states.push("document-end");
    this.state = "document-content";
    this.skip();
    return this.event("document-start", start);
  }

  private documentContent(): YamlEvent {
    const token = this.token;
    const ends = ["version-directive", "tag-directive", "document-start", "document-end", "stream-end"];
    if (ends.includes(token.type)) {
      this.popState();
      return this.emptyScalar(token.start);
    }
    return this.node(true, false);
  }

  private documentEnd(): YamlEvent {
    const token = this.token;
    if (token.type === "document-end") this.skip();
    this.tagDirectives = [];
    this.state = "document-start";
    return this.event("document-end", token.start);
  }

  private processDirectives(): void {
    let version = false;
    let token = this.token;
    while (token.type === "version-directive" || token.type === "tag-directive") {
      if (token.type === "version-directive") {
        if (version) throw this.error("found duplicate %YAML directive", token.start);
        if (token.major !== 1 || token.minor !== 1) throw this.error("found incompatible YAML document", token.start);
        version = true;
      } else {
        if (this.tagDirectives.some((d) => d.handle === token.value)) {
          throw this.error("found duplicate %TAG directive", token.start);
        }
        this.tagDirectives.push({ handle: token.value, prefix: token.suffix });
      }
      this.skip();
      token = this.token;
    }
    for (const directive of defaultTagDirectives) {
      if (!this.tagDirectives.some((d) => d.handle === directive.handle)) this.tagDirectives.push(directive);
    }
  }

  private node(block: boolean, indentlessSequence: boolean): YamlEvent {
    let token = this.token;
    if (token.type === "alias") {
      this.popState();
      this.skip();
      const e = this.event("alias", token.start);
      e.anchor = token.value;
      return e;
    }
    const start = token.start;
    let anchor = "";
    let tagToken: Token | undefined;
    if (token.type === "anchor") {
      anchor = token.value;
      this.skip();
      token = this.token;
      if (token.type === "tag") {
        tagToken = token;
        this.skip();
        token = this.token;
      }
    } else if (token.type === "tag") {
      tagToken = token;
      this.skip();
      token = this.token;
      if (token.type === "anchor") {
        anchor = token.value;
        this.skip();
        token = this.token;
      }
    }
    let tag = "";
    if (tagToken !== undefined) {
      if (tagToken.value === "") {
        tag = tagToken.suffix;
      } else {
        const directive = this.tagDirectives.find((d) => d.handle === tagToken.value);
        if (directive !== undefined) tag = directive.prefix + tagToken.suffix;
        if (tag === "") throw this.error("found undefined tag handle", tagToken.start, start);
      }
    }
    if (indentlessSequence && token.type === "block-entry") {
      return this.collection("sequence-start", "indentless-sequence-entry", start, anchor, tag);
    }
    if (token.type === "scalar") {
      this.popState();
      const e = this.event("scalar", start);
      e.anchor = anchor;
      e.tag = tag;
      e.value = token.value;
      e.style = token.style;
      e.implicit = (tag === "" && token.style === "plain") || tag === "!";
      this.skip();
      return e;
    }
    switch (token.type) {
      case "flow-sequence-start":
        return this.collection("sequence-start", "flow-sequence-first-entry", start, anchor, tag);
      case "flow-mapping-start":
        return this.collection("mapping-start", "flow-mapping-first-key", start, anchor, tag);
      case "block-sequence-start":
        if (block) return this.collection("sequence-start", "block-sequence-first-entry", start, anchor, tag);
        break;
      case "block-mapping-start":
        if (block) return this.collection("mapping-start", "block-mapping-first-key", start, anchor, tag);
        break;
    }
    if (anchor !== "" || tag !== "") {
      // Properties with nothing after them: an empty scalar.
      this.popState();
      const e = this.event("scalar", start);
      e.anchor = anchor;
      e.tag = tag;
      e.implicit = tag === "";
      return e;
    }
    throw this.error("did not find expected node content", token.start, start);
  }

  private collection(type: EventType, next: State, start: number, anchor: string, tag: string): YamlEvent {
    this.state = next;
    const e = this.event(type, start);
    e.anchor = anchor;
    e.tag = tag;
    e.implicit = tag === "";
    return e;
  }

  /** Opens a collection on its first entry: its start is remembered for errors. */
  private open(): void {
    this.marks.push(this.token.start);
    this.skip();
  }

  private close(type: EventType): YamlEvent {
    const token = this.token;
    this.popState();
    this.marks.pop();
    this.skip();
    return this.event(type, token.start);
  }

  private blockSequenceEntry(first: boolean): YamlEvent {
    if (first) this.open();
    let token = this.token;
    if (token.type === "block-entry") {
      const mark = token.end;
      this.skip();
      token = this.token;
      if (token.type !== "block-entry" && token.type !== "block-end") {
        this.states.push("block-sequence-entry");
        return this.node(true, false);
      }
      this.state = "block-sequence-entry";
      return this.emptyScalar(mark);
    }
    if (token.type === "block-end") return this.close("sequence-end");
    throw this.error("did not find expected '-' indicator", token.start, this.marks.pop());
  }

  private indentlessSequenceEntry(): YamlEvent {
    let token = this.token;
    if (token.type === "block-entry") {
      const mark = token.end;
      this.skip();
      token = this.token;
      const type = token.type;
      if (type !== "block-entry" && type !== "key" && type !== "value" && type !== "block-end") {
        this.states.push("indentless-sequence-entry");
        return this.node(true, false);
      }
      this.state = "indentless-sequence-entry";
      return this.emptyScalar(mark);
    }
    this.popState();
    return this.event("sequence-end", token.start);
  }

  private blockMappingKey(first: boolean): YamlEvent {
    if (first) this.open();
    let token = this.token;
    if (token.type === "key") {
      const mark = token.end;
      this.skip();
      token = this.token;
      if (token.type !== "key" && token.type !== "value" && token.type !== "block-end") {
        this.states.push("block-mapping-value");
        return this.node(true, true);
      }
      this.state = "block-mapping-value";
      return this.emptyScalar(mark);
    }
    if (token.type === "block-end") return this.close("mapping-end");
    throw this.error("did not find expected key", token.start, this.marks.pop());
  }

  private blockMappingValue(): YamlEvent {
    let token = this.token;
    if (token.type === "value") {
      const mark = token.end;
      this.skip();
      token = this.token;
      if (token.type !== "key" && token.type !== "value" && token.type !== "block-end") {
        this.states.push("block-mapping-key");
        return this.node(true, true);
      }
      this.state = "block-mapping-key";
      return this.emptyScalar(mark);
    }
    this.state = "block-mapping-key";
    return this.emptyScalar(token.start);
  }

  private flowSequenceEntry(first: boolean): YamlEvent {
    if (first) this.open();
    let token = this.token;
    if (token.type !== "flow-sequence-end") {
      if (!first) {
        if (token.type !== "flow-entry") {
          throw this.error("did not find expected ',' or ']'", token.start, this.marks.pop());
        }
        this.skip();
        token = this.token;
      }
      if (token.type === "key") {
        // `[a: b]`: a single-pair mapping inside the sequence.
        this.state = "flow-sequence-entry-mapping-key";
        const e = this.event("mapping-start", token.start);
        e.implicit = true;
        this.skip();
        return e;
      }
      if (token.type !== "flow-sequence-end") {
        this.states.push("flow-sequence-entry");
        return this.node(false, false);
      }
    }
    return this.close("sequence-end");
  }

  private flowSequenceEntryMappingKey(): YamlEvent {
    const token = this.token;
    if (token.type !== "value" && token.type !== "flow-entry" && token.type !== "flow-sequence-end") {
      this.states.push("flow-sequence-entry-mapping-value");
      return this.node(false, false);
    }
    const mark = token.end;
    this.skip();
    this.state = "flow-sequence-entry-mapping-value";
    return this.emptyScalar(mark);
  }

  private flowSequenceEntryMappingValue(): YamlEvent {
    let token = this.token;
    if (token.type === "value") {
      this.skip();
      token = this.token;
      if (token.type !== "flow-entry" && token.type !== "flow-sequence-end") {
        this.states.push("flow-sequence-entry-mapping-end");
        return this.node(false, false);
      }
    }
    this.state = "flow-sequence-entry-mapping-end";
    return this.emptyScalar(token.start);
  }

  private flowSequenceEntryMappingEnd(): YamlEvent {
    this.state = "flow-sequence-entry";
    return this.event("mapping-end", this.token.start);
  }

  private flowMappingKey(first: boolean): YamlEvent {
    if (first) this.open();
    let token = this.token;
    if (token.type !== "flow-mapping-end") {
      if (!first) {
        if (token.type !== "flow-entry") {
          throw this.error("did not find expected ',' or '}'", token.start, this.marks.pop());
        }
        this.skip();
        token = this.token;
      }
      if (token.type === "key") {
        this.skip();
        token = this.token;
        if (token.type !== "value" && token.type !== "flow-entry" && token.type !== "flow-mapping-end") {
          this.states.push("flow-mapping-value");
          return this.node(false, false);
        }
        this.state = "flow-mapping-value";
        return this.emptyScalar(token.start);
      }
      if (token.type !== "flow-mapping-end") {
        this.states.push("flow-mapping-empty-value");
        return this.node(false, false);
      }
    }
    return this.close("mapping-end");
  }

  private flowMappingValue(empty: boolean): YamlEvent {
    let token = this.token;
    if (empty) {
      this.state = "flow-mapping-key";
      return this.emptyScalar(token.start);
    }
    if (token.type === "value") {
      this.skip();
      token = this.token;
      if (token.type !== "flow-entry" && token.type !== "flow-mapping-end") {
        this.states.push("flow-mapping-key");
        return this.node(false, false);
      }
    }
    this.state = "flow-mapping-key";
    return this.emptyScalar(token.start);
  }
}
