import { z } from "zod";
import { answerObject, nullishFlag, nullishText } from "./common";

/**
 * The Storage API (a zone's files, at the zone's storage host; no OpenAPI document in ../shared): the objects a
 * directory listing (`GET /{zone}/{path}/`) and `DESCRIBE /{zone}/{path}` answer. Sources: docs.bunny.net
 * "Storage API" (Edge Storage API reference: list files, upload with `Checksum`, download, delete) and
 * docs.bunny.net/storage/dotnet-sdk (the object's fields); BunnyWay/terraform-provider-bunnynet
 * internal/api/storage_file.go (the object read by DESCRIBE; `Checksum` upper-case SHA-256 hex).
 */

/** SHA-256 as the Storage API writes it: 64 hex digits (upper case on the wire; compared case-insensitively). */
export const StorageChecksumSchema = z.string().regex(/^[0-9a-fA-F]{64}$/, "must be a SHA-256 checksum (64 hex digits)");

/** A file or directory as the Storage API lists it. Extra fields are tolerated; a checksum is null for a directory. */
export const StorageObjectSchema = answerObject({
  ObjectName: z.string().min(1).max(1024),
  Path: nullishText,
  Length: z.number().int().min(0),
  IsDirectory: nullishFlag,
  Checksum: StorageChecksumSchema.nullish().transform((v) => (v ? v.toUpperCase() : null)),
  ContentType: nullishText,
  LastChanged: nullishText,
  DateCreated: nullishText,
  Guid: nullishText,
});

/** `GET /{zone}/{path}/`: the directory's objects (never paged by the API: bounded by maxResponseBytes). */
export const StorageObjectListSchema = z.array(StorageObjectSchema);

export type StorageObject = z.output<typeof StorageObjectSchema>;

/** The longest file path the package sends (the transport's own bound on a whole path is 2,048 characters). */
export const MAX_STORAGE_PATH = 1024;

/**
 * Why a path inside a storage zone (`css/site.css`) cannot name a file, or undefined when it can: relative, `/`
 * between non-empty segments, no `.` or `..` (the URL would name another file), no backslash or control character.
 */
export function storagePathProblem(path: string): string | undefined {
  if (path === "") return "must not be empty";
  if (path.length > MAX_STORAGE_PATH) return `must be at most ${MAX_STORAGE_PATH} characters`;
  if (path.startsWith("/") || path.endsWith("/")) return "must not start or end with / (a path inside the zone, such as css/site.css)";
  if ([...path].some((c) => c === "\\" || c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) return "must not contain a backslash or a control character";
  const segments = path.split("/");
  if (segments.some((s) => s === "")) return "must not contain an empty segment (//)";
  if (segments.some((s) => s === "." || s === "..")) return "must not contain . or .. segments";
  return undefined;
}

/** A file's path inside its zone, as `storagePathProblem` allows it. */
export const StorageFilePathSchema = z.string().superRefine((path, ctx) => {
  const problem = storagePathProblem(path);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});
