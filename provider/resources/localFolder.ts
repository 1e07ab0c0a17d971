import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { resolve } from "node:path";
import { Readable } from "node:stream";
import type { RawBody } from "../http/requestSpec";
import { isArchive, isTaggedAsset } from "./assetInputs";

/**
 * The files of a StorageFolder's `source`, read from the local disk: a folder's path, a `pulumi.asset.FileArchive`
 * of a folder, or a `pulumi.asset.AssetArchive` of FileAssets and StringAssets (as the engine sends archives to a
 * dynamic provider: `{<sigKey>: <archiveSig>, path | assets | uri}`; see assetInputs.ts). Files are listed first
 * (names and sizes only) and their bytes are read one stream at a time per worker, so memory does not grow with
 * the folder.
 */

/** One local file: its path relative to the source (`/` separated), its size, and how to read it. */
export interface LocalFile {
  relativePath: string;
  size: number;
  open(): Readable;
}

/** Files a source may hold (a bound on the state's size: a checksum per file is stored). */
export const MAX_FOLDER_FILES = 100_000;

/** Reads a folder recursively; a symbolic link to a file is read as that file, one to a folder is not followed. */
async function folderFiles(root: string): Promise<LocalFile[]> {
  const dir = resolve(root);
  const info = await stat(dir);
  if (!info.isDirectory()) throw new Error(`${root} is not a folder (a .zip or .tar archive is not unpacked: pass the unpacked folder)`);
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files: LocalFile[] = [];
  for (const entry of entries) {
    const full = resolve(entry.parentPath, entry.name);
    const isFile = entry.isFile() || (entry.isSymbolicLink() && (await stat(full)).isFile());
    if (!isFile) continue;
    if (files.length >= MAX_FOLDER_FILES) throw new Error(`${root} holds more than ${MAX_FOLDER_FILES} files`);
    const relativePath = full.slice(dir.length + 1).split(/[\\/]/).join("/");
    files.push({ relativePath, size: (await stat(full)).size, open: () => createReadStream(full) });
  }
  return files;
}

/** The files of an AssetArchive's `assets` (names are paths inside it; nested archives are refused). */
async function archiveFiles(assets: Record<string, unknown>): Promise<LocalFile[]> {
  const files: LocalFile[] = [];
  for (const [name, value] of Object.entries(assets)) {
    const asset = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
    if (isArchive(asset)) throw new Error(`${name}: an archive inside an AssetArchive is not supported; use a FileArchive of a folder`);
    if (!isTaggedAsset(asset)) throw new Error(`${name}: must be a FileAsset or StringAsset`);
    if (typeof asset.text === "string") {
      const bytes = Buffer.from(asset.text, "utf8");
      files.push({ relativePath: name, size: bytes.length, open: () => Readable.from([bytes]) });
    } else if (typeof asset.path === "string" && asset.path !== "") {
      const path = resolve(asset.path);
      files.push({ relativePath: name, size: (await stat(path)).size, open: () => createReadStream(path) });
    } else throw new Error(`${name}: a RemoteAsset is not uploaded; download it first`);
  }
  return files;
}

/** Why a `source` value can never be read (before touching the disk), or undefined. */
export function sourceProblem(source: unknown): string | undefined {
  if (typeof source === "string") return source === "" ? "must not be empty (a path to a folder)" : undefined;
  if (typeof source !== "object" || source === null || Array.isArray(source)) return "must be a path to a folder, or a pulumi.asset.FileArchive or AssetArchive";
  const archive = source as Record<string, unknown>;
  if (isTaggedAsset(archive)) return "a single asset is not a folder: use StorageFile, or an AssetArchive of it";
  if (!isArchive(archive)) return "must be a path to a folder, or a pulumi.asset.FileArchive or AssetArchive";
  if (typeof archive.uri === "string") return "a RemoteArchive is not uploaded: download and unpack it first";
  if (typeof archive.path !== "string" && (typeof archive.assets !== "object" || archive.assets === null)) return "the archive is empty";
  return undefined;
}

/** The files of a source `sourceProblem` accepted. */
export function localFiles(source: unknown): Promise<LocalFile[]> {
  if (typeof source === "string") return folderFiles(source);
  const archive = source as Record<string, unknown>;
  return typeof archive.path === "string" ? folderFiles(archive.path) : archiveFiles(archive.assets as Record<string, unknown>);
}

/** Upper-case SHA-256 hex, as the Storage API writes checksums, of bytes or of a stream (read once, never held). */
export async function storageChecksum(body: RawBody): Promise<string> {
  const hash = createHash("sha256");
  if (body instanceof Uint8Array) hash.update(body);
  else for await (const chunk of typeof body === "function" ? body() : body.open()) hash.update(chunk as Buffer);
  return hash.digest("hex").toUpperCase();
}

/** Runs `work` over the items, at most `limit` at a time; the first failure rejects (the others finish first). */
export async function forEachBounded<T>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (failure === undefined && next < items.length) {
      const index = next++;
      try {
        await work(items[index], index);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure) throw failure.error;
}
