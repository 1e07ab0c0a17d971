import { type IncomingMessage, type Server, createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";

/** One request that went through a RecordingProxy: what the emulator's own log never keeps (its body). */
export interface ProxiedRequest {
  method: string;
  /** Path and query string. */
  url: string;
  /** The body as text (`""` for none). */
  body: string;
}

/**
 * A loopback HTTP proxy in front of an emulator that records every request's method, path and body, for tests that
 * compare what two deployments sent. The emulator's request log holds no bodies by design (they carry secrets), so the
 * bodies are kept here, in the test process only.
 */
export class RecordingProxy {
  private constructor(
    private readonly server: Server,
    readonly url: string,
    /** Every request so far, in the order received. */
    readonly requests: ProxiedRequest[],
  ) {}

  static async start(target: string): Promise<RecordingProxy> {
    const to = new URL(target);
    const requests: ProxiedRequest[] = [];
    const server = createServer((req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const body = Buffer.concat(chunks);
        requests.push({ method: req.method ?? "GET", url: req.url ?? "/", body: body.toString("utf8") });
        const headers = { ...req.headers, host: to.host };
        const forward = httpRequest({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        });
        forward.on("error", (e) => {
          res.writeHead(502);
          res.end(String(e));
        });
        forward.end(body);
      });
    });
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
    return new RecordingProxy(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests);
  }

  /** The requests from index `from` on (`requests.length` before a step marks where it starts). */
  since(from: number): ProxiedRequest[] {
    return this.requests.slice(from);
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((ok) => this.server.close(() => ok()));
  }
}
