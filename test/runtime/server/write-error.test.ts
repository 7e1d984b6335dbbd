import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { gone } from "../../../runtime/errors/status-error.js";
import { writeError } from "../../../runtime/http/write-error.js";

function capture() {
  const out = { code: 0, headers: {} as Record<string, unknown>, body: "" };
  const res = {
    headersSent: false,
    writeHead(code: number, headers: Record<string, unknown>) {
      out.code = code;
      out.headers = headers;
    },
    end(body: string) {
      out.body = body;
    },
  } as unknown as ServerResponse;
  return { res, out };
}

describe("writeError", () => {
  it("writes a StatusError as its Status with its code", () => {
    const { res, out } = capture();
    writeError(res, gone("too old"), () => {});
    expect(out.code).toBe(410);
    expect(out.headers["Content-Type"]).toBe("application/json");
    expect(JSON.parse(out.body)).toEqual(gone("too old").status);
  });

  it("logs any other exception and answers 500 InternalError", () => {
    const { res, out } = capture();
    const logged: unknown[] = [];
    writeError(res, new Error("boom"), (_m, e) => logged.push(e));
    expect(out.code).toBe(500);
    expect(JSON.parse(out.body)).toMatchObject({
      reason: "InternalError",
      message: "Internal error occurred: boom",
      code: 500,
    });
    expect(logged).toHaveLength(1);
  });
});
