/**
 * Reading an answer's body within bounds: a 2xx JSON answer up to `maxResponseBytes` (a larger one is refused
 * unread), only the start of an error answer (its message needs a few hundred characters, not gigabytes), and a
 * streamed body no slower than a floor (a trickle that never trips the idle timeout is cut all the same).
 */
import type { Readable } from "node:stream";
import type { Dispatcher } from "undici";

/** The longest part of an error body read: enough for any message the APIs send. */
const ERROR_BODY_BYTES = 16 * 1024;

/** Reads the body as UTF-8 up to `max` bytes; undefined (and the connection dropped) when it is larger. */
export async function readBounded(res: Dispatcher.ResponseData, max: number): Promise<string | undefined> {
  const declared = Number(res.headers["content-length"]);
  if (Number.isFinite(declared) && declared > max) {
    res.body.destroy();
    return undefined;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body) {
    size += (chunk as Buffer).length;
    if (size > max) {
      res.body.destroy();
      return undefined;
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** The first ERROR_BODY_BYTES of an error answer (the rest is dropped with the connection); "" if it fails. */
export async function readErrorBody(res: Dispatcher.ResponseData): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of res.body) {
      chunks.push(chunk as Buffer);
      size += (chunk as Buffer).length;
      if (size >= ERROR_BODY_BYTES) break;
    }
  } catch {
    // A body that fails midway still gave its status; what arrived is enough.
  }
  if (!res.body.readableEnded) res.body.destroy();
  return Buffer.concat(chunks).subarray(0, ERROR_BODY_BYTES).toString("utf8");
}

/**
 * Calls `tooSlow` when `source` delivers fewer than `minBytesPerSecond` over a window of `windowMs`. A window in
 * which the reader fell behind (the pipe paused the source) is not counted: a slow consumer is not a slow server.
 * Stops watching when the source closes.
 */
export function watchThroughput(source: Readable, minBytesPerSecond: number, windowMs: number, tooSlow: (bytes: number) => void): void {
  if (minBytesPerSecond <= 0) return;
  const floor = (minBytesPerSecond * windowMs) / 1000;
  let bytes = 0;
  let readerBehind = false;
  source.on("data", (chunk: Buffer) => (bytes += chunk.length));
  source.on("pause", () => (readerBehind = true));
  const timer = setInterval(() => {
    const counted = !readerBehind && !source.isPaused();
    if (counted && bytes < floor) {
      clearInterval(timer);
      tooSlow(bytes);
    }
    bytes = 0;
    readerBehind = source.isPaused();
  }, windowMs);
  timer.unref();
  source.once("close", () => clearInterval(timer));
}
