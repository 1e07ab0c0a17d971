import { once } from "node:events";
import { createWriteStream } from "node:fs";

/**
 * A tiny MP4 for tests and the site example: the boxes a player reads first (`ftyp`, then `moov` with its movie
 * header `mvhd` carrying the duration) and an `mdat` of filler. Nothing can play it; the emulator only checks that it
 * starts like a video and reads its length from `mvhd` (emulator/surfaces/streamVideos.ts).
 */
function box(type: string, ...payload: Buffer[]): Buffer {
  const body = Buffer.concat(payload);
  const header = Buffer.alloc(8);
  header.writeUInt32BE(8 + body.length, 0);
  header.write(type, 4, "latin1");
  return Buffer.concat([header, body]);
}

/** A movie header (version 0): timescale 1000, the duration in milliseconds, rate 1.0, volume 1.0, the unit matrix. */
function mvhd(seconds: number): Buffer {
  const b = Buffer.alloc(100);
  b.writeUInt32BE(1000, 12); // timescale (after version+flags, creation and modification times)
  b.writeUInt32BE(seconds * 1000, 16); // duration
  b.writeUInt32BE(0x00010000, 20); // rate 1.0
  b.writeUInt16BE(0x0100, 24); // volume 1.0
  for (const [at, v] of [[36, 0x00010000], [52, 0x00010000], [68, 0x40000000]] as const) b.writeUInt32BE(v, at); // matrix
  b.writeUInt32BE(2, 96); // next track id
  return b;
}

/** The file's bytes: `seconds` long by its header, about `fillerBytes` of media data, distinct per `seed`. */
export function tinyMp4(seconds: number, fillerBytes = 2048, seed = 0): Buffer {
  const ftyp = box("ftyp", Buffer.from("isom", "latin1"), Buffer.from([0, 0, 2, 0]), Buffer.from("isomiso2avc1mp41", "latin1"));
  const filler = Buffer.alloc(fillerBytes);
  for (let i = 0; i < fillerBytes; i++) filler[i] = (i * 31 + seed * 7) & 0xff;
  return Buffer.concat([ftyp, box("moov", box("mvhd", mvhd(seconds))), box("mdat", filler)]);
}

/**
 * Writes an MP4 of `totalBytes` (its header as tinyMp4's, then an `mdat` box filling the rest) to `path`, one
 * megabyte at a time: a large video for upload tests and benchmarks without holding it in memory.
 */
export async function writeLargeMp4(path: string, seconds: number, totalBytes: number): Promise<void> {
  const head = tinyMp4(seconds, 0);
  const mediaBytes = totalBytes - head.length;
  if (mediaBytes < 0 || totalBytes > 0xffffffff) throw new Error(`an MP4 of ${totalBytes} bytes cannot be written here`);
  head.writeUInt32BE(8 + mediaBytes, head.length - 8); // the mdat box now holds the filler that follows
  const out = createWriteStream(path);
  const write = async (chunk: Buffer) => {
    if (!out.write(chunk)) await once(out, "drain");
  };
  await write(head);
  const megabyte = Buffer.alloc(1_000_000);
  for (let i = 0; i < megabyte.length; i++) megabyte[i] = (i * 31) & 0xff;
  for (let left = mediaBytes; left > 0; left -= megabyte.length) await write(left >= megabyte.length ? megabyte : megabyte.subarray(0, left));
  out.end();
  await once(out, "finish");
}
