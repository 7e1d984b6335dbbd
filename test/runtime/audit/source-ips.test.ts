import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { sourceIPs } from "../../../runtime/audit/source-ips.js";

const request = (headers: Record<string, string>, remoteAddress?: string) =>
  ({ headers, socket: { remoteAddress } }) as unknown as IncomingMessage;

describe("audit source IPs", () => {
  it("lists the peer alone when no proxy header came, without IPv4's ::ffff: prefix", () => {
    expect(sourceIPs(request({}, "::ffff:10.0.0.7"))).toEqual(["10.0.0.7"]);
    expect(sourceIPs(request({}, "::1"))).toEqual(["::1"]);
    expect(sourceIPs(request({}, undefined))).toEqual([]);
  });

  it("lists X-Forwarded-For's IPs, then X-Real-Ip unless listed, then the peer unless it is the last", () => {
    expect(sourceIPs(request({ "x-forwarded-for": "1.2.3.4, junk, 5.6.7.8" }, "::ffff:10.0.0.7"))).toEqual([
      "1.2.3.4",
      "5.6.7.8",
      "10.0.0.7",
    ]);
    expect(sourceIPs(request({ "x-forwarded-for": "1.2.3.4", "x-real-ip": "1.2.3.4" }, "1.2.3.4"))).toEqual([
      "1.2.3.4",
    ]);
    expect(sourceIPs(request({ "x-real-ip": " 9.9.9.9 " }, "10.0.0.7"))).toEqual(["9.9.9.9", "10.0.0.7"]);
    expect(sourceIPs(request({ "x-forwarded-for": "" }, "10.0.0.7"))).toEqual(["10.0.0.7"]);
  });
});
