// The `labelSelector` query parameter parsed with the grammar and error texts of apimachinery's
// labels.Parse, which clients see verbatim in 400 responses:
//   selector    ::= requirement | requirement "," selector
//   requirement ::= ["!"] KEY [ ("in" | "notin") "(" VALUES ")" | ("=" | "==" | "!=" | ">" | "<") VALUE ]
import { invalid } from "../errors/field-error.js";
import { formatFieldError, formatFieldErrors } from "../errors/format-field-error.js";
import { compareGoStrings } from "./go-strings.js";
import {
  binaryOperators,
  type LabelOperator,
  type LabelRequirement,
  LabelSelector,
  requirementErrors,
} from "./label-selector.js";
import { qualifiedNameErrors } from "./label-validation.js";
import type { ParseResult } from "./parse-result.js";

type Token =
  | "end"
  | "closePar"
  | "comma"
  | "not"
  | "doubleEquals"
  | "equals"
  | "greaterThan"
  | "identifier"
  | "in"
  | "lessThan"
  | "notEquals"
  | "notIn"
  | "openPar";

const literalTokens: ReadonlyMap<string, Token> = new Map<string, Token>([
  [")", "closePar"],
  [",", "comma"],
  ["!", "not"],
  ["==", "doubleEquals"],
  ["=", "equals"],
  [">", "greaterThan"],
  ["in", "in"],
  ["<", "lessThan"],
  ["!=", "notEquals"],
  ["notin", "notIn"],
  ["(", "openPar"],
]);

interface Item {
  tok: Token;
  lit: string;
}

const isWhitespace = (ch: string): boolean => ch === " " || ch === "\t" || ch === "\r" || ch === "\n";
const specials = new Set(["=", "!", "(", ")", ",", ">", "<"]);
const isSpecial = (ch: string): boolean => specials.has(ch);

/** kube's lexer reads a NUL byte as the end of input; the character is consumed all the same. */
const END = "\0";

function lex(s: string): Item[] {
  let pos = 0;
  const read = (): string => (pos < s.length ? (s[pos++] ?? END) : END);
  const items: Item[] = [];
  for (;;) {
    let ch = read();
    while (isWhitespace(ch)) ch = read();
    if (ch === END) {
      items.push({ tok: "end", lit: "" });
      return items;
    }
    pos--;
    if (isSpecial(ch)) {
      // The longest run of symbols that still spells an operator: "!=" rather than "!" then "=".
      let buffer = "";
      let last: Item | undefined;
      for (;;) {
        const c = read();
        if (c === END) break;
        if (!isSpecial(c)) {
          pos--;
          break;
        }
        buffer += c;
        const tok = literalTokens.get(buffer);
        if (tok !== undefined) last = { tok, lit: buffer };
        else if (last !== undefined) {
          pos--;
          break;
        }
      }
      // Every single symbol is an operator, so `last` is always set.
      items.push(last ?? { tok: "identifier", lit: buffer });
    } else {
      let buffer = "";
      for (;;) {
        const c = read();
        if (c === END) break;
        if (isSpecial(c) || isWhitespace(c)) {
          pos--;
          break;
        }
        buffer += c;
      }
      items.push({ tok: literalTokens.get(buffer) ?? "identifier", lit: buffer });
    }
  }
}

class ParseFailure extends Error {}

class Parser {
  private position = 0;
  constructor(private readonly items: Item[]) {}

  /** In value position the keywords `in` and `notin` are plain identifiers (`x in (in)`). */
  private asValue(item: Item): Item {
    return item.tok === "in" || item.tok === "notIn" ? { tok: "identifier", lit: item.lit } : item;
  }

  private lookahead(values: boolean): Item {
    const item = this.items[this.position] ?? { tok: "end", lit: "" };
    return values ? this.asValue(item) : item;
  }

  private consume(values: boolean): Item {
    const item = this.lookahead(values);
    this.position++;
    return item;
  }

  parse(): LabelRequirement[] {
    const reqs: LabelRequirement[] = [];
    for (;;) {
      const { tok, lit } = this.lookahead(true);
      if (tok === "end") return reqs;
      if (tok !== "identifier" && tok !== "not") {
        throw new ParseFailure(`found '${lit}', expected: !, identifier, or 'end of string'`);
      }
      try {
        reqs.push(this.parseRequirement());
      } catch (e) {
        if (e instanceof ParseFailure) throw new ParseFailure(`unable to parse requirement: ${e.message}`);
        throw e;
      }
      const next = this.consume(true);
      if (next.tok === "end") return reqs;
      if (next.tok !== "comma") throw new ParseFailure(`found '${next.lit}', expected: ',' or 'end of string'`);
      const after = this.lookahead(true);
      if (after.tok !== "identifier" && after.tok !== "not") {
        throw new ParseFailure(`found '${after.lit}', expected: identifier after ','`);
      }
    }
  }

  private parseRequirement(): LabelRequirement {
    let operator: LabelOperator | undefined;
    let item = this.consume(true);
    if (item.tok === "not") {
      operator = "!";
      item = this.consume(true);
    }
    if (item.tok !== "identifier") throw new ParseFailure(`found '${item.lit}', expected: identifier`);
    const key = item.lit;
    const keyErrs = qualifiedNameErrors(key);
    // kube validates the key under a nil field.Path, which prints as "<nil>".
    if (keyErrs.length > 0) throw new ParseFailure(formatFieldError(invalid("<nil>", key, keyErrs.join("; "))));
    // `!key` ends the requirement whatever follows: `!a=b` fails on the "=".
    if (operator === "!") return checked({ key, operator, values: [] });
    const next = this.lookahead(true).tok;
    if (next === "end" || next === "comma") return checked({ key, operator: "exists", values: [] });
    operator = this.parseOperator();
    const values = operator === "in" || operator === "notin" ? this.parseValues() : this.parseExactValue();
    return checked({ key, operator, values: [...new Set(values)].sort(compareGoStrings) });
  }

  private parseOperator(): LabelOperator {
    const { tok, lit } = this.consume(false);
    switch (tok) {
      case "in":
        return "in";
      case "notIn":
        return "notin";
      case "equals":
        return "=";
      case "doubleEquals":
        return "==";
      case "notEquals":
        return "!=";
      case "greaterThan":
        return "gt";
      case "lessThan":
        return "lt";
      default:
        throw new ParseFailure(`found '${lit}', expected: ${binaryOperators.join(", ")}`);
    }
  }

  private parseValues(): string[] {
    const open = this.consume(true);
    if (open.tok !== "openPar") throw new ParseFailure(`found '${open.lit}' expected: '('`);
    const { tok, lit } = this.lookahead(true);
    if (tok === "closePar") {
      this.consume(true);
      return [""];
    }
    if (tok !== "identifier" && tok !== "comma") {
      throw new ParseFailure(`found '${lit}', expected: ',', ')' or identifier`);
    }
    const values = this.parseIdentifiersList();
    // kube reports the token seen after "(" here; the list only returns in front of ")" anyway.
    if (this.consume(true).tok !== "closePar") throw new ParseFailure(`found '${lit}', expected: ')'`);
    return values;
  }

  /** A comma-separated list in which empty entries stand for the empty value: `(,a)`, `(a,,b)`. */
  private parseIdentifiersList(): string[] {
    const values: string[] = [];
    for (;;) {
      const { tok, lit } = this.consume(true);
      if (tok === "identifier") {
        values.push(lit);
        const next = this.lookahead(true);
        if (next.tok === "comma") continue;
        if (next.tok === "closePar") return values;
        throw new ParseFailure(`found '${next.lit}', expected: ',' or ')'`);
      }
      if (tok !== "comma") throw new ParseFailure(`found '${lit}', expected: ',', or identifier`);
      if (values.length === 0) values.push("");
      const next = this.lookahead(true).tok;
      if (next === "closePar") {
        values.push("");
        return values;
      }
      if (next === "comma") {
        this.consume(true);
        values.push("");
      }
    }
  }

  private parseExactValue(): string[] {
    const next = this.lookahead(true).tok;
    if (next === "end" || next === "comma") return [""];
    const { tok, lit } = this.consume(true);
    if (tok === "identifier") return [lit];
    throw new ParseFailure(`found '${lit}', expected: identifier`);
  }
}

function checked(req: LabelRequirement): LabelRequirement {
  const errs = requirementErrors(req);
  if (errs.length > 0) throw new ParseFailure(formatFieldErrors(errs));
  return req;
}

/** labels.Parse: the empty string (or only blanks) selects everything. */
export function parseLabelSelector(s: string): ParseResult<LabelSelector> {
  try {
    return { ok: true, selector: new LabelSelector(new Parser(lex(s)).parse()) };
  } catch (e) {
    if (e instanceof ParseFailure) return { ok: false, error: e.message };
    throw e;
  }
}
