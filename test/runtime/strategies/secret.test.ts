import { describe, expect, it } from "vitest";
import { created, createErrors, type Kind, updateErrors } from "./write-path.js";

const Secret: Kind = ["", "v1", "Secret"];
const b64 = (s: string): string => Buffer.from(s).toString("base64");
const secret = (fields: Record<string, unknown>): Record<string, unknown> => ({
  metadata: { name: "s", namespace: "default" },
  ...fields,
});

describe("secret strategy", () => {
  it("is Opaque by default and stores stringData as data", () => {
    expect(created(Secret, secret({ data: { a: b64("1"), b: b64("2") }, stringData: { b: "two" } }))).toEqual({
      metadata: { name: "s", namespace: "default" },
      type: "Opaque",
      data: { a: b64("1"), b: b64("two") },
    });
  });

  it("checks key names and the total size", () => {
    expect(createErrors(Secret, secret({ data: { "bad/key": "", "..x": "" } }))).toEqual([
      `data[bad/key]: Invalid value: "bad/key": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`,
      `data[..x]: Invalid value: "..x": must not start with '..'`,
    ]);
    expect(createErrors(Secret, secret({ data: { big: Buffer.alloc(1024 * 1024 + 1).toString("base64") } }))).toEqual([
      "data: Too long: may not be more than 1048576 bytes",
    ]);
  });

  it("requires the keys of each well-known type", () => {
    expect(createErrors(Secret, secret({ type: "kubernetes.io/tls", data: { "tls.crt": b64("c") } }))).toEqual([
      "data[tls.key]: Required value",
    ]);
    expect(createErrors(Secret, secret({ type: "kubernetes.io/basic-auth" }))).toEqual([
      "data[%s][username]: Required value",
      "data[%s][password]: Required value",
    ]);
    expect(createErrors(Secret, secret({ type: "kubernetes.io/ssh-auth" }))).toEqual([
      "data[%s][ssh-privatekey]: Required value",
    ]);
    expect(createErrors(Secret, secret({ type: "kubernetes.io/service-account-token" }))).toEqual([
      "metadata.annotations[kubernetes.io/service-account.name]: Required value",
    ]);
    expect(
      createErrors(
        Secret,
        secret({ type: "kubernetes.io/dockerconfigjson", data: { ".dockerconfigjson": b64("[1]") } }),
      ),
    ).toEqual([
      'data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": json: cannot unmarshal array into Go value of type map[string]interface {}',
    ]);
    expect(
      createErrors(
        Secret,
        secret({ type: "kubernetes.io/dockerconfigjson", data: { ".dockerconfigjson": b64('{"auths":{}}') } }),
      ),
    ).toEqual([]);
  });

  it("keeps its type, and its data once immutable", () => {
    const old = created(
      Secret,
      secret({ type: "kubernetes.io/tls", data: { "tls.crt": b64("c"), "tls.key": b64("k") }, immutable: true }),
    );
    expect(updateErrors(Secret, secret({ data: { "tls.crt": b64("c2"), "tls.key": b64("k") } }), old)).toEqual([
      'type: Invalid value: "Opaque": field is immutable',
      "immutable: Forbidden: field is immutable when `immutable` is set",
      "data: Forbidden: field is immutable when `immutable` is set",
    ]);
  });
});
