// The ceiling of bench/compare.ts, run as its own process as the servers are: a bare node:https server
// answering every request, after reading its body, with a fixed 1 KiB JSON body.
// Usage: node --import tsx bench/compare/ceiling-server.ts <port> <cert file> <key file>
import { readFileSync } from "node:fs";
import { createServer } from "node:https";

const [port, certFile, keyFile] = process.argv.slice(2);
const body = Buffer.from(JSON.stringify({ kind: "ConfigMap", data: { blob: "x".repeat(990) } }).slice(0, 1024));
const server = createServer(
  { cert: readFileSync(certFile ?? ""), key: readFileSync(keyFile ?? ""), keepAliveTimeout: 60_000 },
  (req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "Content-Type": "application/json", "Content-Length": body.length });
      res.end(body);
    });
  },
);
server.listen(Number(port), "127.0.0.1", () => console.log("ready"));
process.on("SIGTERM", () => {
  server.close();
  server.closeAllConnections();
});
