/** One line per request the emulator served, for tests and demos. Never holds headers or bodies. */
export interface RequestLogEntry {
  seq: number;
  time: string;
  method: string;
  /** Path and query string as received, except that a URL given as a query value loses its own query (see loggedUrl). */
  url: string;
  /** The route pattern that matched, e.g. `/shield/rate-limit/:id`. */
  route: string;
  status: number;
  durationMs: number;
  /** Which credential kind was presented, never its value. */
  auth: "accessKey" | "bearer" | "none";
  /** The request's declared body length (its Content-Length header), when it sent one. */
  contentLength?: number;
  /** Set when the body came chunked (Transfer-Encoding: chunked): of unknown length until its end. */
  chunked?: true;
  /** Set when fault injection changed the answer. */
  fault?: string;
}

/** A bounded in-memory log: the newest `capacity` entries. */
export class RequestLog {
  private entries: RequestLogEntry[] = [];
  private seq = 0;

  constructor(private readonly capacity = 50_000) {}

  add(entry: Omit<RequestLogEntry, "seq">): void {
    this.entries.push({ seq: ++this.seq, ...entry });
    if (this.entries.length > this.capacity) this.entries.splice(0, this.entries.length - this.capacity);
  }

  since(seq = 0): RequestLogEntry[] {
    return this.entries.filter((e) => e.seq > seq);
  }

  get lastSeq(): number {
    return this.seq;
  }

  clear(): void {
    this.entries = [];
  }
}
