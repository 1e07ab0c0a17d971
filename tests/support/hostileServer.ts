import { setTimeout as sleep } from "node:timers/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/**
 * A deliberately hostile HTTP server for tests and benchmarks: it answers what no well-behaved server does
 * (gigabyte bodies, endless streams, paging that never ends, huge Retry-After, connections dropped mid-file),
 * so the client's bounds can be proven over real HTTP.
 *
 * Bounded by construction: it listens on 127.0.0.1 only, every streamed answer stops at `maxBytes` or
 * `maxMs` (whichever comes first) or when the client goes away, and `close()` destroys every connection.
 */

export interface HostileRequest {
  method: string;
  /** Path and query as received (dot segments already resolved by the client, if it did). */
  url: string;
  headers: IncomingMessage["headers"];
}

export type HostileHandler = (req: IncomingMessage, res: ServerResponse, url: URL) => void | Promise<void>;

export interface HostileServer {
  url: string;
  /** Every request received, in order (headers included: tests check what was sent). */
  requests: HostileRequest[];
  /** Routes by exact path; unmatched paths answer 404 with an empty body. */
  route(path: string, handler: HostileHandler): void;
  reset(): void;
  close(): Promise<void>;
}

export async function startHostileServer(): Promise<HostileServer> {
  const routes = new Map<string, HostileHandler>();
  const requests: HostileRequest[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers });
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const handler = routes.get(url.pathname);
    if (!handler) {
      res.statusCode = 404;
      res.end();
      return;
    }
    Promise.resolve(handler(req, res, url)).catch(() => res.destroy());
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    route: (path, handler) => void routes.set(path, handler),
    reset() {
      routes.clear();
      requests.length = 0;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface StreamLimits {
  /** Stop after this many bytes (the body then ends normally unless `drop`). */
  maxBytes: number;
  /** Stop after this long, whatever was sent. */
  maxMs: number;
  /** Pause between chunks (a slow but healthy sender). */
  intervalMs?: number;
  /** Bytes per chunk (default 64 KiB). */
  chunkBytes?: number;
  /** Destroy the connection at the end instead of ending the body (a transfer cut mid-file). */
  drop?: boolean;
}

/**
 * Streams `prefix`, then `filler` repeated, then `suffix`, honouring backpressure and stopping at the limits or when
 * the client disconnects. Returns the number of bytes written.
 */
export async function streamBody(res: ServerResponse, parts: { prefix?: string; filler: string; suffix?: string }, limits: StreamLimits): Promise<number> {
  const started = Date.now();
  const chunkBytes = limits.chunkBytes ?? 64 * 1024;
  const unit = Buffer.from(parts.filler);
  const chunk = Buffer.alloc(Math.max(unit.length, Math.floor(chunkBytes / unit.length) * unit.length));
  for (let i = 0; i < chunk.length; i += unit.length) unit.copy(chunk, i);
  let sent = 0;
  let gone = false;
  res.on("close", () => (gone = true));
  const write = async (b: Buffer) => {
    sent += b.length;
    if (res.write(b)) return;
    await new Promise<void>((r) => {
      const done = () => {
        res.off("drain", done);
        res.off("close", done);
        r();
      };
      res.on("drain", done);
      res.on("close", done);
    });
  };
  if (parts.prefix) await write(Buffer.from(parts.prefix));
  const suffix = Buffer.from(parts.suffix ?? "");
  while (!gone && sent + chunk.length + suffix.length <= limits.maxBytes && Date.now() - started < limits.maxMs) {
    await write(chunk);
    if (limits.intervalMs) await sleep(limits.intervalMs);
  }
  if (gone) return sent;
  if (limits.drop) {
    res.socket?.destroy();
    return sent;
  }
  if (suffix.length) await write(suffix);
  res.end();
  return sent;
}

/** Answers JSON with a status and optional headers. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}
