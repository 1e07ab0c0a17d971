import type { Readable } from "node:stream";
import { NetworkError } from "../http/errors";

/** How many times a dropped transfer is resumed before it is reported as partial. */
export const MAX_RESUMES = 3;

/** A line longer than this is passed on in pieces; until its end arrives, the transfer cannot resume at a line. */
const MAX_HELD_LINE_BYTES = 1024 * 1024;

export interface ResumableOptions {
  /** Asks for the file again from line `start` (0-based, of the lines the server filters and sorts). */
  fetchFrom(start: number): Promise<Readable>;
  /** Whether the file can still change (today's does): only a file that cannot is resumed. */
  resumable: boolean;
  /** Told before each resumption, with the lines received so far and the failure. */
  onResume?(lines: number, failure: NetworkError): void;
}

/**
 * The bytes of a v1 day file, passed on in complete lines: when the transfer drops midway (a NetworkError) and the
 * file can no longer change, it is asked for again from the first line not yet received (the API's `start`), up to
 * MAX_RESUMES times, so the output has every line exactly once. Whatever follows the last newline at the very end
 * is passed on as it is, for the caller to recognise a file cut mid-line.
 */
export async function* resumableLines(first: Readable, options: ResumableOptions): AsyncGenerator<Buffer> {
  let body = first;
  let lines = 0;
  let resumes = 0;
  let countable = true;
  for (;;) {
    let held: Buffer = Buffer.alloc(0);
    try {
      for await (const chunk of body) {
        const data = held.length > 0 ? Buffer.concat([held, chunk as Buffer]) : (chunk as Buffer);
        const end = data.lastIndexOf(0x0a) + 1;
        held = data.subarray(end);
        if (end > 0) {
          countable = true;
          lines += newlines(data, end);
          yield data.subarray(0, end);
        }
        if (held.length > MAX_HELD_LINE_BYTES) {
          countable = false;
          yield held;
          held = Buffer.alloc(0);
        }
      }
      if (held.length > 0) yield held;
      return;
    } catch (e) {
      if (!(e instanceof NetworkError) || !options.resumable || !countable || resumes >= MAX_RESUMES) throw e;
      resumes++;
      options.onResume?.(lines, e);
      body = await options.fetchFrom(lines);
    }
  }
}

function newlines(data: Buffer, end: number): number {
  let n = 0;
  for (let i = data.indexOf(0x0a); i !== -1 && i < end; i = data.indexOf(0x0a, i + 1)) n++;
  return n;
}
