import { describe, expect, it } from "vitest";
import { invalid as invalidField, required } from "../../../runtime/errors/field-error.js";
import {
  alreadyExists,
  badRequest,
  conflict,
  forbidden,
  internal,
  invalid,
  methodNotSupported,
  notAcceptable,
  notFound,
  StatusError,
  timeout,
  unsupportedMediaType,
} from "../../../runtime/errors/status-error.js";

const deployments = { group: "apps", name: "deployments" };

describe("StatusError", () => {
  it("invalid: 422 with causes and the aggregated message", () => {
    const err = invalid({ group: "apps", name: "Deployment" }, "x", [
      invalidField("spec.replicas", -1, "must be greater than or equal to 0"),
      required("spec.selector"),
    ]);
    expect(err).toBeInstanceOf(StatusError);
    expect(JSON.stringify(err.status)).toBe(
      JSON.stringify({
        kind: "Status",
        apiVersion: "v1",
        metadata: {},
        status: "Failure",
        message:
          'Deployment.apps "x" is invalid: [spec.replicas: Invalid value: -1: must be greater than or equal to 0, spec.selector: Required value]',
        reason: "Invalid",
        details: {
          name: "x",
          group: "apps",
          kind: "Deployment",
          causes: [
            {
              reason: "FieldValueInvalid",
              message: "Invalid value: -1: must be greater than or equal to 0",
              field: "spec.replicas",
            },
            { reason: "FieldValueRequired", message: "Required value", field: "spec.selector" },
          ],
        },
        code: 422,
      }),
    );
  });

  it("invalid with one error has no brackets; core kinds have no group", () => {
    const err = invalid({ group: "", name: "Pod" }, "p", [required("spec.containers[0].name")]);
    expect(err.status.message).toBe('Pod "p" is invalid: spec.containers[0].name: Required value');
    expect(err.status.details).toEqual({
      name: "p",
      kind: "Pod",
      causes: [{ reason: "FieldValueRequired", message: "Required value", field: "spec.containers[0].name" }],
    });
  });

  it.each([
    [notFound(deployments, "x"), 404, "NotFound", 'deployments.apps "x" not found'],
    [notFound({ group: "", name: "pods" }, "p"), 404, "NotFound", 'pods "p" not found'],
    [alreadyExists(deployments, "x"), 409, "AlreadyExists", 'deployments.apps "x" already exists'],
    [
      conflict(
        deployments,
        "x",
        "the object has been modified; please apply your changes to the latest version and try again",
      ),
      409,
      "Conflict",
      'Operation cannot be fulfilled on deployments.apps "x": the object has been modified; please apply your changes to the latest version and try again',
    ],
    [badRequest("bad"), 400, "BadRequest", "bad"],
    [forbidden(deployments, "x", "denied"), 403, "Forbidden", 'deployments.apps "x" is forbidden: denied'],
    [forbidden(deployments, "", "denied"), 403, "Forbidden", "deployments.apps is forbidden: denied"],
    [
      methodNotSupported(deployments, "proxy"),
      405,
      "MethodNotAllowed",
      'proxy is not supported on resources of kind "deployments.apps"',
    ],
    [
      notAcceptable(["application/json", "application/yaml"]),
      406,
      "NotAcceptable",
      "only the following media types are accepted: application/json, application/yaml",
    ],
    [
      unsupportedMediaType(["application/json"]),
      415,
      "UnsupportedMediaType",
      "the body of the request was in an unknown format - accepted media types include: application/json",
    ],
    [internal("boom"), 500, "InternalError", "Internal error occurred: boom"],
    [timeout("too slow", 2), 504, "Timeout", "Timeout: too slow"],
  ])("%#: code, reason and message", (err, code, reason, message) => {
    expect([err.code, err.reason, err.status.message, err.message]).toEqual([code, reason, message, message]);
  });

  it("notFound details name the resource as kind", () => {
    expect(notFound(deployments, "x").status.details).toEqual({ name: "x", group: "apps", kind: "deployments" });
  });
});
