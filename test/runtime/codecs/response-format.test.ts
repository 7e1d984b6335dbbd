import { describe, expect, it } from "vitest";
import { negotiateResponse, type ResponseTarget } from "../../../runtime/codecs/response-format.js";
import { StatusError } from "../../../runtime/errors/status-error.js";

const get: ResponseTarget = { list: false, watch: false, kind: { group: "", kind: "Pod" } };
const list: ResponseTarget = { list: true, watch: false, kind: { group: "apps", kind: "Deployment" } };
const watch: ResponseTarget = { list: true, watch: true };
const none = new URLSearchParams();

const KUBECTL_TABLE =
  "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json";

function failure(fn: () => unknown): StatusError {
  try {
    fn();
  } catch (error) {
    if (error instanceof StatusError) return error;
    throw error;
  }
  throw new Error("expected a StatusError");
}

describe("negotiateResponse media types", () => {
  it("answers JSON without an Accept header or for wildcards", () => {
    expect(negotiateResponse(undefined, none, get)).toEqual({ kind: "json", pretty: false });
    expect(negotiateResponse("", none, get)).toEqual({ kind: "json", pretty: false });
    expect(negotiateResponse("*/*", none, get)).toEqual({ kind: "json", pretty: false });
    expect(negotiateResponse("application/*", none, get)).toEqual({ kind: "json", pretty: false });
  });

  it("answers YAML when asked, and orders clauses by q", () => {
    expect(negotiateResponse("application/yaml", none, get)).toEqual({ kind: "yaml" });
    expect(negotiateResponse("application/yaml;q=0.5, application/json", none, get)).toEqual({
      kind: "json",
      pretty: false,
    });
    expect(negotiateResponse("text/html, application/yaml;q=0.9", none, get)).toEqual({ kind: "yaml" });
  });

  it("ignores parameters it does not know, such as charset", () => {
    expect(negotiateResponse("application/json; charset=utf-8", none, get)).toEqual({ kind: "json", pretty: false });
  });

  it("refuses unknown types with kube's 406", () => {
    for (const accept of ["text/plain", "application/json;as=Table"]) {
      const error = failure(() => negotiateResponse(accept, none, get));
      expect(error.code).toBe(406);
      expect(error.status.reason).toBe("NotAcceptable");
      expect(error.message).toBe(
        "only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf",
      );
    }
  });

  it("falls through clauses whose transformation is not served", () => {
    expect(negotiateResponse("application/json;as=Foo;g=meta.k8s.io;v=v1, application/yaml", none, get)).toEqual({
      kind: "yaml",
    });
    expect(
      negotiateResponse("application/vnd.kubernetes.protobuf;as=Table;g=meta.k8s.io;v=v1,application/json", none, get),
    ).toEqual({ kind: "json", pretty: false });
    expect(negotiateResponse("application/json;as=Table;g=meta.k8s.io;v=v2,application/json", none, get)).toEqual({
      kind: "json",
      pretty: false,
    });
  });
});

describe("negotiateResponse tables", () => {
  it("serves kubectl's Accept header as a v1 Table with metadata rows", () => {
    expect(negotiateResponse(KUBECTL_TABLE, none, list)).toEqual({
      kind: "table",
      version: "v1",
      includeObject: "Metadata",
      pretty: false,
    });
  });

  it("serves v1beta1 and YAML tables", () => {
    expect(negotiateResponse("application/json;as=Table;g=meta.k8s.io;v=v1beta1", none, get)).toMatchObject({
      kind: "table",
      version: "v1beta1",
    });
    expect(negotiateResponse("application/yaml;as=Table;g=meta.k8s.io;v=v1", none, get)).toMatchObject({
      kind: "table",
      yaml: true,
    });
  });

  it("reads includeObject and refuses an unknown value with kube's 400", () => {
    const object = new URLSearchParams("includeObject=Object");
    expect(negotiateResponse(KUBECTL_TABLE, object, list)).toMatchObject({ includeObject: "Object" });
    expect(negotiateResponse(KUBECTL_TABLE, new URLSearchParams("includeObject=None"), list)).toMatchObject({
      includeObject: "None",
    });
    const error = failure(() => negotiateResponse(KUBECTL_TABLE, new URLSearchParams("includeObject=All"), list));
    expect(error.code).toBe(400);
    expect(error.message).toBe(
      `Unable to convert to Table as requested: includeObject: Invalid value: "All": must be 'Metadata', 'Object', 'None', or empty`,
    );
  });

  it("ignores includeObject when no Table is asked for", () => {
    expect(negotiateResponse("application/json", new URLSearchParams("includeObject=All"), list)).toEqual({
      kind: "json",
      pretty: false,
    });
  });

  it("serves tables on a watch, never pretty", () => {
    expect(negotiateResponse(KUBECTL_TABLE, new URLSearchParams("pretty=true"), watch)).toEqual({
      kind: "table",
      version: "v1",
      includeObject: "Metadata",
      pretty: false,
    });
  });
});

describe("negotiateResponse PartialObjectMetadata", () => {
  const pom = "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1";
  const pomList = "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1";

  it("serves PartialObjectMetadata for one object and PartialObjectMetadataList for a list", () => {
    expect(negotiateResponse(pom, none, get)).toEqual({
      kind: "partial-object-metadata",
      version: "v1",
      pretty: false,
    });
    expect(negotiateResponse(pomList, none, list)).toEqual({
      kind: "partial-object-metadata",
      version: "v1",
      pretty: false,
    });
    expect(negotiateResponse(`${pom.replace("json", "yaml")}`, none, get)).toMatchObject({ yaml: true });
  });

  it("answers the protobuf clause of client-go's metadata client", () => {
    const accept = `application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,${pomList},application/json`;
    expect(negotiateResponse(accept, none, list)).toMatchObject({ kind: "partial-object-metadata", protobuf: true });
  });

  it("refuses a list asked as PartialObjectMetadata and an object asked as a list, in kube's words", () => {
    const onList = failure(() => negotiateResponse(pom, none, list));
    expect(onList.code).toBe(406);
    expect(onList.message).toBe(
      "you requested PartialObjectMetadata, but the requested object is a list (*apps.DeploymentList)",
    );
    const onObject = failure(() => negotiateResponse(pomList, none, get));
    expect(onObject.message).toBe(
      "you requested PartialObjectMetadataList, but the requested object is not a list (*core.Pod)",
    );
  });

  it("transforms each watch event to PartialObjectMetadata, and falls back to objects for a list kind", () => {
    expect(negotiateResponse(pom, none, watch)).toMatchObject({ kind: "partial-object-metadata" });
    expect(negotiateResponse(pomList, none, watch)).toEqual({ kind: "json", pretty: false });
  });
});

describe("negotiateResponse watch", () => {
  it("refuses YAML for a watch with the stream media types", () => {
    const error = failure(() => negotiateResponse("application/yaml", none, watch));
    expect(error.code).toBe(406);
    expect(error.message).toBe(
      "only the following media types are accepted: application/json;stream=watch, application/vnd.kubernetes.protobuf;stream=watch",
    );
  });

  it("accepts stream=watch on JSON only", () => {
    expect(negotiateResponse("application/json;stream=watch", none, watch)).toEqual({ kind: "json", pretty: false });
    expect(() => negotiateResponse("application/yaml;stream=watch", none, get)).toThrow(StatusError);
    expect(() => negotiateResponse("application/json;stream=other", none, get)).toThrow(StatusError);
  });
});

describe("negotiateResponse pretty", () => {
  it("follows a non-empty pretty query parameter as Go's ParseBool", () => {
    expect(negotiateResponse(undefined, new URLSearchParams("pretty=true"), get)).toEqual({
      kind: "json",
      pretty: true,
    });
    expect(negotiateResponse(undefined, new URLSearchParams("pretty=1"), get)).toEqual({ kind: "json", pretty: true });
    expect(negotiateResponse(undefined, new URLSearchParams("pretty=yes"), get)).toEqual({
      kind: "json",
      pretty: false,
    });
    expect(negotiateResponse(undefined, new URLSearchParams("pretty=false"), get, "curl/8.5.0")).toEqual({
      kind: "json",
      pretty: false,
    });
  });

  it("pretty-prints for curl, wget and browsers unless told otherwise", () => {
    for (const ua of ["curl/8.5.0", "Wget/1.21", "Mozilla/5.0 (X11)"]) {
      expect(negotiateResponse(undefined, new URLSearchParams("pretty="), get, ua)).toEqual({
        kind: "json",
        pretty: true,
      });
    }
    expect(negotiateResponse(undefined, none, get, "kubectl/v1.36.2")).toEqual({ kind: "json", pretty: false });
  });

  it("takes pretty=1 as a media type parameter", () => {
    expect(negotiateResponse("application/json;pretty=1", none, get)).toEqual({ kind: "json", pretty: true });
    expect(negotiateResponse(`${KUBECTL_TABLE.split(",")[0]};pretty=1`, none, list)).toMatchObject({ pretty: true });
  });
});
