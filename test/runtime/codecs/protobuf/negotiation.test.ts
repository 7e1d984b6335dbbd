// Negotiating protobuf responses as kube-apiserver does: client-go's `protobuf, json` list, q-values, kinds
// without a protobuf message, tables (JSON and YAML only), PartialObjectMetadata and watch streams.
import { describe, expect, it } from "vitest";
import { negotiateResponse, type ResponseTarget } from "../../../../runtime/codecs/response-format.js";
import { StatusError } from "../../../../runtime/errors/status-error.js";

const pb = "application/vnd.kubernetes.protobuf";
const clientGo = `${pb},application/json`;
const none = new URLSearchParams();
const get: ResponseTarget = { list: false, watch: false, kind: { group: "", kind: "ConfigMap" } };
const list: ResponseTarget = { ...get, list: true };
const watch: ResponseTarget = { list: true, watch: true, kind: { group: "", kind: "ConfigMap" } };
/** A kind without a protobuf message, as custom resources will be. */
const jsonOnly: ResponseTarget = { ...get, kind: { group: "example.com", kind: "Widget" }, protobuf: () => false };

/** kube's 406 for a request whose Accept header nothing can answer. */
const notAcceptable = expect.objectContaining({ code: 406 });

describe("protobuf negotiation", () => {
  it("serves client-go's Accept list as protobuf, for objects, lists and watches", () => {
    expect(negotiateResponse(clientGo, none, get)).toEqual({ kind: "protobuf" });
    expect(negotiateResponse(clientGo, none, list)).toEqual({ kind: "protobuf" });
    expect(negotiateResponse(clientGo, none, watch)).toEqual({ kind: "protobuf" });
    expect(negotiateResponse(`${pb};stream=watch`, none, watch)).toEqual({ kind: "protobuf" });
    expect(negotiateResponse(pb, none, get)).toEqual({ kind: "protobuf" });
  });

  it("follows q-values and order, and never picks protobuf for a wildcard", () => {
    expect(negotiateResponse(`${pb};q=0.5, application/json`, none, get)).toEqual({ kind: "json", pretty: false });
    expect(negotiateResponse(`application/json;q=0.9, ${pb}`, none, get)).toEqual({ kind: "protobuf" });
    expect(negotiateResponse(`application/json, ${pb}`, none, get)).toEqual({ kind: "json", pretty: false });
    expect(negotiateResponse("*/*", none, get)).toEqual({ kind: "json", pretty: false });
    expect(negotiateResponse("application/*", none, get)).toEqual({ kind: "json", pretty: false });
  });

  it("ignores pretty for protobuf", () => {
    expect(negotiateResponse(`${pb};pretty=1`, new URLSearchParams("pretty=true"), get, "curl/8")).toEqual({
      kind: "protobuf",
    });
  });

  it("refuses protobuf for a kind without a message with 406, and serves JSON from the same list", () => {
    const refused = () => negotiateResponse(pb, none, jsonOnly);
    expect(refused).toThrow(StatusError);
    expect(refused).toThrow(notAcceptable);
    expect(refused).toThrow(
      "only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf",
    );
    expect(negotiateResponse(clientGo, none, jsonOnly)).toEqual({ kind: "json", pretty: false });
  });

  it("still serves such a kind as protobuf PartialObjectMetadata, as kube serves custom resources", () => {
    const pom = `${pb};as=PartialObjectMetadata;g=meta.k8s.io;v=v1`;
    expect(negotiateResponse(pom, none, jsonOnly)).toEqual({
      kind: "partial-object-metadata",
      version: "v1",
      pretty: false,
      protobuf: true,
    });
  });

  it("skips a protobuf Table clause: tables are JSON and YAML only", () => {
    const table = `${pb};as=Table;g=meta.k8s.io;v=v1`;
    expect(negotiateResponse(`${table},application/json;as=Table;g=meta.k8s.io;v=v1`, none, list)).toMatchObject({
      kind: "table",
    });
    expect(negotiateResponse(`${table},${pb}`, none, list)).toEqual({ kind: "protobuf" });
    expect(() => negotiateResponse(table, none, list)).toThrow(notAcceptable);
  });

  it("transforms watch events to PartialObjectMetadata in protobuf, and falls back to objects for the list kind", () => {
    const pom = `${pb};as=PartialObjectMetadata;g=meta.k8s.io;v=v1`;
    expect(negotiateResponse(pom, none, watch)).toMatchObject({ kind: "partial-object-metadata", protobuf: true });
    const pomList = `${pb};as=PartialObjectMetadataList;g=meta.k8s.io;v=v1`;
    expect(negotiateResponse(pomList, none, watch)).toEqual({ kind: "protobuf" });
    expect(negotiateResponse(pomList, none, list)).toMatchObject({ kind: "partial-object-metadata", protobuf: true });
  });

  it("does not look the kind's message up unless a clause picks protobuf", () => {
    let asked = 0;
    const counted: ResponseTarget = { ...get, protobuf: () => ++asked > 0 };
    negotiateResponse("application/json", none, counted);
    negotiateResponse(undefined, none, counted);
    expect(asked).toBe(0);
    negotiateResponse(clientGo, none, counted);
    expect(asked).toBe(1);
  });
});
