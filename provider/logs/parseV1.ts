import {
  V1_EXTENDED_COLUMN_COUNT,
  V1_NO_REFERER,
  V1_STANDARD_COLUMN_COUNT,
  type V1LogEntry,
  type V1MalformedLine,
  type V1Record,
} from "./format";
import { V1Filter, type V1FilterSpec } from "./filter";

/**
 * A streaming parser for v1 day files (multi-gigabyte): it holds one chunk and at most one partial
 * line, never the file. Each chunk is decoded to a string once, up to its last newline (so a UTF-8
 * character is never split), and lines and fields are found with indexOf: no per-line regex or split.
 *
 * Awkward lines:
 * - A `|` inside a value: the format has no escaping. The first nine columns (cache status … edge
 *   location) never contain one, and the user agent is followed by exactly two columns (request id,
 *   country code; five with extended logging), so extra pipes are taken as part of the user agent.
 *   The line is accepted only if what is left for the trailing columns looks like them.
 * - Extended logging (15 columns): recognised per line when the three extra columns follow a
 *   country-code-shaped column and the body bytes are numeric (or empty).
 * - Wrong column count, non-numeric status/timestamp/bytes/pull zone: reported as malformed with the
 *   line number; parsing continues.
 * - A last line without a newline: reported as truncated, never parsed (it may be cut mid-field).
 * - CRLF endings are accepted; blank lines are skipped (they still count for line numbers).
 */

export interface V1ParseOptions {
  /** Keep only matching entries (malformed lines are always reported). */
  filter?: V1Filter | V1FilterSpec;
  /** Counters filled while parsing. */
  stats?: V1ParseStats;
  /** Longest line accepted (bytes); longer ones are reported and skipped without being buffered. Default 1 MiB. */
  maxLineBytes?: number;
}

export interface V1ParseStats {
  lines: number;
  entries: number;
  malformed: number;
  filteredOut: number;
  bytes: number;
}

export function newV1ParseStats(): V1ParseStats {
  return { lines: 0, entries: 0, malformed: 0, filteredOut: 0, bytes: 0 };
}

const NEWLINE = 0x0a;
const MAX_PIPES = 64;
const MAX_REPORTED_TEXT = 300;
const DECODE_WINDOW = 64 * 1024;

/** Digits only, at most 15 of them (safe integers); -1 otherwise. */
function parseUint(text: string, start: number, end: number): number {
  if (end <= start || end - start > 15) return -1;
  let n = 0;
  for (let i = start; i < end; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

/** Empty, `-`, or two ASCII letters. */
function looksLikeCountry(text: string, start: number, end: number): boolean {
  const len = end - start;
  if (len === 0) return true;
  if (len === 1) return text.charCodeAt(start) === 45;
  if (len !== 2) return false;
  const a = text.charCodeAt(start) | 0x20;
  const b = text.charCodeAt(start + 1) | 0x20;
  return a >= 97 && a <= 122 && b >= 97 && b <= 122;
}

/** A request id: non-empty, no spaces. */
function looksLikeRequestId(text: string, start: number, end: number): boolean {
  if (end <= start) return false;
  for (let i = start; i < end; i++) if (text.charCodeAt(i) === 32) return false;
  return true;
}

function optional(text: string, start: number, end: number): string | undefined {
  return end > start ? text.slice(start, end) : undefined;
}

/** The push-based core: feed Buffers, collect records. Use `parseV1Log` for the async iterator. */
export class V1Parser {
  readonly stats: V1ParseStats;
  private readonly filter: V1Filter | undefined;
  private readonly maxLineBytes: number;
  private readonly pipes = new Int32Array(MAX_PIPES);
  private carry: Buffer | undefined;
  /** True while skipping the rest of an over-long line. */
  private skipping = false;
  private skippedPrefix = "";
  private lineNumber = 0;

  constructor(options: V1ParseOptions = {}) {
    const f = options.filter;
    const compiled = f === undefined ? undefined : f instanceof V1Filter ? f : new V1Filter(f);
    this.filter = compiled && !compiled.isEmpty ? compiled : undefined;
    this.stats = options.stats ?? newV1ParseStats();
    this.maxLineBytes = options.maxLineBytes ?? 1024 * 1024;
  }

  /** Parses every line `chunk` completes; appends entries and malformed lines to `out`. */
  push(chunk: Buffer, out: V1Record[]): void {
    this.stats.bytes += chunk.length;
    let pos = 0;
    if (this.carry !== undefined || this.skipping) {
      const nl = chunk.indexOf(NEWLINE);
      if (nl < 0) {
        this.extendCarry(chunk);
        return;
      }
      this.extendCarry(chunk.subarray(0, nl));
      this.finishCarriedLine(out);
      pos = nl + 1;
    }
    // Decode at most ~64 KiB at a time: a larger string goes to V8's large-object space, which only a
    // full GC frees, and a 1 MiB chunk per read then makes the heap (RSS) balloon.
    while (pos < chunk.length) {
      let lastNl = chunk.lastIndexOf(NEWLINE, Math.min(pos + DECODE_WINDOW, chunk.length) - 1);
      if (lastNl < pos) lastNl = chunk.indexOf(NEWLINE, pos + DECODE_WINDOW);
      if (lastNl < 0) break;
      const text = chunk.toString("utf8", pos, lastNl + 1);
      let start = 0;
      for (;;) {
        const end = text.indexOf("\n", start);
        if (end < 0) break;
        this.parseLine(text, start, end, out);
        start = end + 1;
      }
      pos = lastNl + 1;
    }
    if (pos < chunk.length) this.extendCarry(chunk.subarray(pos));
  }

  /** Call once at the end of input: a leftover partial line is reported as truncated. */
  end(out: V1Record[]): void {
    if (this.skipping) {
      this.finishCarriedLine(out);
      return;
    }
    if (this.carry === undefined) return;
    const text = this.carry.toString("utf8");
    this.carry = undefined;
    this.lineNumber++;
    this.stats.lines++;
    this.report(out, "truncated: the last line has no newline (the file may have been cut off)", text, 0, text.length);
  }

  private extendCarry(piece: Buffer): void {
    if (this.skipping) return;
    // Copy: the caller may reuse its chunk buffer.
    this.carry = this.carry === undefined ? Buffer.from(piece) : Buffer.concat([this.carry, piece]);
    if (this.carry.length > this.maxLineBytes) {
      this.skipping = true;
      this.skippedPrefix = this.carry.subarray(0, MAX_REPORTED_TEXT).toString("utf8");
      this.carry = undefined;
    }
  }

  private finishCarriedLine(out: V1Record[]): void {
    if (this.skipping) {
      this.skipping = false;
      this.lineNumber++;
      this.stats.lines++;
      this.report(out, `line longer than ${this.maxLineBytes} bytes`, this.skippedPrefix, 0, this.skippedPrefix.length);
      this.skippedPrefix = "";
      return;
    }
    const text = this.carry!.toString("utf8");
    this.carry = undefined;
    this.parseLine(text, 0, text.length, out);
  }

  private report(out: V1Record[], reason: string, text: string, start: number, end: number): void {
    this.stats.malformed++;
    const cut = Math.min(end, start + MAX_REPORTED_TEXT);
    const malformed: V1MalformedLine = { kind: "malformed", line: this.lineNumber, reason, text: text.slice(start, cut) + (cut < end ? "…" : "") };
    out.push(malformed);
  }

  /** One line: `text[start, end)` without its newline. */
  private parseLine(text: string, start: number, end: number, out: V1Record[]): void {
    this.lineNumber++;
    this.stats.lines++;
    if (end > start && text.charCodeAt(end - 1) === 13) end--;
    if (end === start) return;

    const pipes = this.pipes;
    let count = 0;
    let p = text.indexOf("|", start);
    while (p >= 0 && p < end) {
      if (count === MAX_PIPES) return this.report(out, `wrong column count: more than ${MAX_PIPES + 1} columns`, text, start, end);
      pipes[count++] = p;
      p = text.indexOf("|", p + 1);
    }
    const columns = count + 1;
    if (columns < V1_STANDARD_COLUMN_COUNT) {
      return this.report(out, `wrong column count: ${columns} (expected ${V1_STANDARD_COLUMN_COUNT}, or ${V1_EXTENDED_COLUMN_COUNT} with extended logging)`, text, start, end);
    }
    // Column i spans [colStart(i), colEnd(i)).
    const colStart = (i: number): number => (i === 0 ? start : pipes[i - 1] + 1);
    const colEnd = (i: number): number => (i === count ? end : pipes[i]);

    // How many columns follow the user agent: 2, or 5 with extended logging.
    let trailing = 2;
    if (columns >= V1_EXTENDED_COLUMN_COUNT) {
      const country = columns - 4;
      const bodyBytes = columns - 3;
      const bodyStart = colStart(bodyBytes);
      const bodyEnd = colEnd(bodyBytes);
      if (looksLikeCountry(text, colStart(country), colEnd(country)) && (bodyEnd === bodyStart || parseUint(text, bodyStart, bodyEnd) >= 0)) trailing = 5;
    }
    const requestIdCol = columns - trailing;
    const countryCol = requestIdCol + 1;
    if ((columns !== V1_STANDARD_COLUMN_COUNT && columns !== V1_EXTENDED_COLUMN_COUNT) || (trailing === 2 && columns > V1_STANDARD_COLUMN_COUNT)) {
      // Extra pipes, taken as part of the user agent: only if the trailing columns look right.
      if (!looksLikeRequestId(text, colStart(requestIdCol), colEnd(requestIdCol)) || !looksLikeCountry(text, colStart(countryCol), colEnd(countryCol))) {
        return this.report(out, `wrong column count: ${columns} (expected ${V1_STANDARD_COLUMN_COUNT}, or ${V1_EXTENDED_COLUMN_COUNT} with extended logging)`, text, start, end);
      }
    }

    const statusCode = parseUint(text, colStart(1), colEnd(1));
    if (statusCode < 0) return this.report(out, "status code is not a number", text, start, end);
    const timestamp = parseUint(text, colStart(2), colEnd(2));
    if (timestamp < 0) return this.report(out, "timestamp is not a number", text, start, end);
    const bytesSent = parseUint(text, colStart(3), colEnd(3));
    if (bytesSent < 0) return this.report(out, "bytes sent is not a number", text, start, end);
    const pullZoneId = parseUint(text, colStart(4), colEnd(4));
    if (pullZoneId < 0) return this.report(out, "pull zone id is not a number", text, start, end);
    let bodyBytesSent: number | undefined;
    if (trailing === 5) {
      const s = colStart(countryCol + 1);
      const e = colEnd(countryCol + 1);
      bodyBytesSent = e > s ? parseUint(text, s, e) : undefined;
    }

    const cacheStatus = text.slice(start, pipes[0]);
    if (this.filter !== undefined && !this.filter.acceptsStatus(statusCode, cacheStatus)) {
      this.stats.filteredOut++;
      return;
    }
    const refererStart = colStart(6);
    const refererEnd = colEnd(6);
    const noReferer = refererEnd === refererStart || (refererEnd - refererStart === V1_NO_REFERER.length && text.startsWith(V1_NO_REFERER, refererStart));
    const entry: V1LogEntry = {
      kind: "entry",
      line: this.lineNumber,
      extended: trailing === 5,
      cacheStatus,
      statusCode,
      timestamp,
      bytesSent,
      pullZoneId,
      remoteIp: optional(text, colStart(5), colEnd(5)),
      referer: noReferer ? undefined : text.slice(refererStart, refererEnd),
      url: text.slice(colStart(7), colEnd(7)),
      edgeLocation: text.slice(colStart(8), colEnd(8)),
      // The user agent runs from column 9 to the column before the request id (more than one if it held pipes).
      userAgent: optional(text, colStart(9), colEnd(requestIdCol - 1)),
      requestId: text.slice(colStart(requestIdCol), colEnd(requestIdCol)),
      countryCode: optional(text, colStart(countryCol), colEnd(countryCol)),
      bodyBytesSent,
      contentRange: trailing === 5 ? optional(text, colStart(countryCol + 2), colEnd(countryCol + 2)) : undefined,
      authorizationHeader: trailing === 5 ? optional(text, colStart(countryCol + 3), colEnd(countryCol + 3)) : undefined,
    };
    if (this.filter !== undefined && !this.filter.acceptsSearch(entry)) {
      this.stats.filteredOut++;
      return;
    }
    this.stats.entries++;
    out.push(entry);
  }
}

function asBuffer(chunk: Buffer | Uint8Array | string): Buffer {
  if (typeof chunk === "string") return Buffer.from(chunk, "utf8");
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

/** Records in batches (one per input chunk): the fastest way through a large file. */
export async function* parseV1Batches(source: AsyncIterable<Buffer | Uint8Array | string>, options: V1ParseOptions = {}): AsyncGenerator<V1Record[]> {
  const parser = new V1Parser(options);
  for await (const chunk of source) {
    const out: V1Record[] = [];
    parser.push(asBuffer(chunk), out);
    if (out.length > 0) yield out;
  }
  const out: V1Record[] = [];
  parser.end(out);
  if (out.length > 0) yield out;
}

/**
 * Parses a v1 day file from any byte stream (a Readable, an HTTP body, a file stream), one record at a time:
 * `{kind: "entry", line, …fields}` or `{kind: "malformed", line, reason, text}`.
 */
export async function* parseV1Log(source: AsyncIterable<Buffer | Uint8Array | string>, options: V1ParseOptions = {}): AsyncGenerator<V1Record> {
  for await (const batch of parseV1Batches(source, options)) yield* batch;
}
