import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { resolve } from "node:path";
import { Readable } from "node:stream";
import { specialArchiveSig as ARCHIVE_SIG, specialAssetSig as ASSET_SIG, specialSigKey as SIG_KEY } from "../pulumi/wireSignatures";
import { z } from "zod";

/**
 * Inputs that take a Pulumi asset (a thumbnail's image, a script's code). The engine sends an asset to a dynamic
 * provider as a plain object tagged with the asset signature, `{<sigKey>: <assetSig>, path | text | uri, hash?}`
 * (archives carry the archive signature); the SDK's classes are rebuilt only in the program process. Stored, an asset
 * is reduced to its path or its text, and its content is fingerprinted at check, so a changed file at the same path
 * is a change (the engine elides old assets' contents: see provider/pulumi/wire.ts).
 */

/** A FileAsset or StringAsset as stored: its path or its text (the engine's hash is dropped). */
export type StoredAsset = { [SIG_KEY]: string; path: string } | { [SIG_KEY]: string; text: string };

/** Whether the value is a tagged archive (never an asset input). */
export function isArchive(value: Record<string, unknown>): boolean {
  return value[SIG_KEY] === ARCHIVE_SIG;
}

/** Whether the value is tagged as an asset (of any kind: file, string or remote). */
export function isTaggedAsset(value: Record<string, unknown>): boolean {
  return value[SIG_KEY] === ASSET_SIG;
}

/** The stored form of a tagged FileAsset or StringAsset with content; undefined for anything else. */
export function storedAsset(value: Record<string, unknown>): StoredAsset | undefined {
  if (value[SIG_KEY] !== ASSET_SIG) return undefined;
  if (typeof value.path === "string" && value.path !== "") return { [SIG_KEY]: ASSET_SIG, path: value.path };
  if (typeof value.text === "string" && value.text !== "") return { [SIG_KEY]: ASSET_SIG, text: value.text };
  return undefined;
}

/** The asset's bytes: its text, or its file (a path relative to the Pulumi project's directory). */
export async function assetBytes(asset: StoredAsset | { path: string }): Promise<Buffer<ArrayBuffer>> {
  return "text" in asset ? Buffer.from(asset.text, "utf8") : readFile(resolve(asset.path));
}

/** `sha256:<hex>` of the bytes: the fingerprint of an asset's content. */
export function sha256(bytes: Uint8Array | string): string {
  return `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
}

/** A file to upload, as stored in state: a path, or an asset reduced to its path or text. */
export type FileInput = string | StoredAsset;

/** What a file input is for, in its messages: a thumbnail's image, a storage file. */
interface FileInputWording {
  /** "an image file", "a file". */
  file: string;
  /** Why an archive is refused: "an archive is not an image". */
  notArchive: string;
  /** What to do instead of a RemoteAsset. */
  notRemote: string;
}

/** The canonical form of a file input, or why it cannot be one. Canonical forms map to themselves. */
function fileInput(value: string | Record<string, unknown>, words: FileInputWording): FileInput | { problem: string } {
  if (typeof value === "string") return value === "" ? { problem: `must not be empty (a path to ${words.file})` } : value;
  if (isArchive(value)) return { problem: `${words.notArchive}: use a FileAsset, a StringAsset or a path` };
  if (!isTaggedAsset(value)) return { problem: `must be a path to ${words.file}, or a pulumi.asset.FileAsset or StringAsset` };
  const asset = storedAsset(value);
  if (asset) return asset;
  if (typeof value.uri === "string") return { problem: `a RemoteAsset is not uploaded: ${words.notRemote}` };
  return { problem: "the asset is empty" };
}

/** The schema of an input that takes a file to upload: a path, or a FileAsset or StringAsset (stored as its path or text). */
export function fileInputSchema(words: FileInputWording) {
  return z.union([z.string(), z.record(z.string(), z.unknown())]).transform((value, ctx): FileInput => {
    const file = fileInput(value, words);
    if (typeof file === "object" && "problem" in file) {
      ctx.addIssue({ code: "custom", message: file.problem });
      return z.NEVER;
    }
    return file;
  });
}

/** The bytes of a file input. */
export function fileInputBytes(file: FileInput): Promise<Buffer<ArrayBuffer>> {
  return assetBytes(typeof file === "string" ? { path: file } : file);
}

/** A file input as a stream opened anew for each read, and its size: never whole in memory (a video). */
export async function fileInputStream(file: FileInput): Promise<{ open: () => Readable; length: number }> {
  if (typeof file === "object" && "text" in file) {
    const bytes = Buffer.from(file.text, "utf8");
    return { open: () => Readable.from([bytes]), length: bytes.byteLength };
  }
  const path = resolve(typeof file === "string" ? file : file.path);
  const { size } = await stat(path);
  return { open: () => createReadStream(path), length: size };
}

/** A file input read in byte ranges (`open(start, end)`: bytes start..end inclusive), each streamed from disk. */
export async function fileInputRanges(file: FileInput): Promise<{ open: (start: number, end: number) => Readable; length: number }> {
  if (typeof file === "object" && "text" in file) {
    const bytes = Buffer.from(file.text, "utf8");
    return { open: (start, end) => Readable.from([bytes.subarray(start, end + 1)]), length: bytes.byteLength };
  }
  const path = resolve(typeof file === "string" ? file : file.path);
  const { size } = await stat(path);
  return { open: (start, end) => createReadStream(path, { start, end }), length: size };
}

/** `sha256:<hex>` of a file input's content, read as a stream (bounded memory whatever the size). */
export async function fileInputSha256(file: FileInput): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of (await fileInputStream(file)).open()) hash.update(chunk as Buffer);
  return `sha256:${hash.digest("hex")}`;
}
