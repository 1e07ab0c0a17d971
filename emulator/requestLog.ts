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
  /** Which credential kind was presented, never its value (an account JWT counts as a bearer token). */
  auth: "accessKey" | "bearer" | "none";
  /** The request's declared body length (its Content-Length header), when it sent one. */
  contentLength?: number;
  /** Set when the body came chunked (Transfer-Encoding: chunked): of unknown length until its end. */
  chunked?: true;
  /** tus uploads (`/tusupload/...`): the Upload-Offset a PATCH sent, or the one a HEAD was answered. */
  uploadOffset?: number;
  /** Set when fault injection changed the answer. */
  fault?: string;
}

/** A bounded in-memory log: the newest `capacity` entries. */
export class RequestLog {
  private entries: RequestLogEntry[] = [];
  /**
   * Where the kept entries start: older ones are past capacity and dropped in batches. Dropping one entry per request
   * moved the whole array each time (0.4 ms a request once the log was full, more than the rest of a request).
   */
  private first = 0;
  private seq = 0;

  constructor(private readonly capacity = 50_000) {}

  add(entry: Omit<RequestLogEntry, "seq">): void {
    this.entries.push({ seq: ++this.seq, ...entry });
    if (this.entries.length - this.first > this.capacity) this.first++;
    if (this.first > 0 && this.first >= this.capacity / 2) {
      this.entries.splice(0, this.first);
      this.first = 0;
    }
  }

  since(seq = 0): RequestLogEntry[] {
    // Entries are in seq order: the first one after `seq` by bisection.
    let low = this.first;
    let high = this.entries.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.entries[middle].seq > seq) high = middle;
      else low = middle + 1;
    }
    return this.entries.slice(low);
  }

  get lastSeq(): number {
    return this.seq;
  }

  clear(): void {
    this.entries = [];
    this.first = 0;
  }
}
