import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { csvRecords, readTokenFile, tokenFileAuthenticator } from "../../../runtime/authn/token-file.js";

const records = (text: string) => [...csvRecords(text)];

function tokenFile(content: string): string {
  const path = join(mkdtempSync(join(tmpdir(), "kapi-tokens-")), "tokens.csv");
  writeFileSync(path, content);
  return path;
}

describe("csvRecords (Go's encoding/csv, any number of fields)", () => {
  it("splits fields, unquotes quoted ones and keeps their commas, quotes and line breaks", () => {
    expect(records('a,"b,c",d\n"he said ""hi""",,x\n')).toEqual([
      ["a", "b,c", "d"],
      ['he said "hi"', "", "x"],
    ]);
    expect(records('t,"line one\r\nline two",w')).toEqual([["t", "line one\nline two", "w"]]);
  });

  it("reads CRLF and a last line without a newline, and skips empty lines", () => {
    expect(records("a,b,c\r\n\r\n\nd,e,f\r")).toEqual([
      ["a", "b", "c"],
      ["d", "e", "f"],
    ]);
    expect(records(" \n")).toEqual([[" "]]);
    expect(records("")).toEqual([]);
  });

  it("reports malformed quotes with Go's line and byte column", () => {
    expect(() => records('a,b"c,d')).toThrow('parse error on line 1, column 4: bare " in non-quoted-field');
    expect(() => records('ok,1,2\na,"b"c,d')).toThrow(
      'parse error on line 2, column 5: extraneous or missing " in quoted-field',
    );
    expect(() => records('é,b"')).toThrow('parse error on line 1, column 5: bare " in non-quoted-field');
    expect(() => records('a,"b\nc')).toThrow(
      'record on line 1; parse error on line 2, column 2: extraneous or missing " in quoted-field',
    );
    expect(() => records('a,"b\n')).toThrow('parse error on line 1, column 6: extraneous or missing " in quoted-field');
  });

  it("yields records one at a time, so earlier records come before a later error", () => {
    const reader = csvRecords('a,b,c\nx"y');
    expect(reader.next().value).toEqual(["a", "b", "c"]);
    expect(() => reader.next()).toThrow(/bare "/);
  });
});

describe("readTokenFile", () => {
  it("reads token, user, uid and comma-separated groups; ignores later columns", () => {
    const path = tokenFile('tok1,alice,u1,"dev,ops"\ntok2,bob,,admins,ignored\ntok3,carol,u3\n');
    expect(readTokenFile(path)).toEqual(
      new Map([
        ["tok1", { name: "alice", uid: "u1", groups: ["dev", "ops"] }],
        ["tok2", { name: "bob", groups: ["admins"] }],
        ["tok3", { name: "carol", uid: "u3", groups: [] }],
      ]),
    );
  });

  it("splits an empty group column into one empty group, as kube's strings.Split does", () => {
    expect(readTokenFile(tokenFile("tok,alice,u1,\n")).get("tok")?.groups).toEqual([""]);
  });

  it("skips empty tokens and lets a repeated token replace the earlier, with warnings", () => {
    const path = tokenFile(",nobody,u0\ntok,first,u1\ntok,second,u2\n");
    const warnings: string[] = [];
    const tokens = readTokenFile(path, (message) => warnings.push(message));
    expect([...tokens.keys()]).toEqual(["tok"]);
    expect(tokens.get("tok")?.name).toBe("second");
    expect(warnings).toEqual([
      `empty token has been found in token file '${path}', record number '1'`,
      `duplicate token has been found in token file '${path}', record number '3'`,
    ]);
  });

  it("stops at a record of fewer than three columns, and at syntax errors", () => {
    const short = tokenFile("tok,alice,u1\ntok2,bob\n");
    expect(() => readTokenFile(short)).toThrow(
      `token file '${short}' must have at least 3 columns (token, user name, user uid), found 2`,
    );
    expect(() => readTokenFile(tokenFile('tok,al"ice,u1\n'))).toThrow(
      'parse error on line 1, column 7: bare " in non-quoted-field',
    );
    expect(() => readTokenFile(join(tmpdir(), "kapi-no-such-token-file.csv"))).toThrow(/ENOENT/);
  });

  it("authenticates the file's tokens", async () => {
    const authenticator = tokenFileAuthenticator(tokenFile('secret,alice,u1,"dev,ops"\n'));
    expect(await authenticator.authenticateToken("secret")).toEqual({
      user: { name: "alice", uid: "u1", groups: ["dev", "ops"] },
    });
    expect(await authenticator.authenticateToken("other")).toBeUndefined();
  });
});
