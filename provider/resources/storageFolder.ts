import { createHash } from "node:crypto";
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { StorageZoneAccess } from "../client/storage";
import { isNotFound } from "../http/errors";
import { idFromString } from "../schemas/common";
import { StorageChecksumSchema, storagePathProblem } from "../schemas/storage";
import { BunnyResource } from "../pulumi/base";
import { logProgress } from "../pulumi/progress";
import type { NumericId, OutputProperties } from "../pulumi/types";
import { type CheckFailure, type ResourceContext, argsMatchSchema, defineResource } from "../pulumi";
import { type LocalFile, forEachBounded, localFiles, sourceProblem, storageChecksum } from "./localFolder";

/**
 * A whole folder in a storage zone: one resource for a site's files, over the Storage API (provider/client/storage.ts
 * cites it). Terraform has only one resource per file (`bunnynet_storage_file`, which missed changed local files:
 * its issue #40); nothing upstream has this, so its rules are decided here:
 * - check reads the local folder and records each file's SHA-256 in `files` (an input derived like StorageFile's
 *   `checksum`), so preview shows which files changed and the engine's diff needs nothing else;
 * - `up` uploads only the files whose checksum differs from the state and deletes only the ones gone from the
 *   folder; create first lists the zone and skips identical files (so it is safe to repeat, and adopts what is there);
 * - refresh lists the zone: a managed file changed or deleted by someone else shows in `files`, and with
 *   `deleteUnmanaged` so does a file nobody manages; the next `up` puts them back;
 * - bodies are streamed from disk, UPLOAD_CONCURRENCY at a time; progress goes to the plugin's stderr, which the
 *   engine shows as the resource's log (pulumi/pulumi pkg/resource/plugin/plugin.go: a plugin's stderr lines go to
 *   the diagnostics sink).
 */

export const STORAGE_FOLDER_TYPE = "StorageFolder";

/** Files uploaded or deleted at once: enough to fill the connection pool's keep-alive sockets, never the memory. */
const UPLOAD_CONCURRENCY = 8;
/** Files hashed at once by check. */
const HASH_CONCURRENCY = 8;

const PrefixSchema = z.string().superRefine((prefix, ctx) => {
  const problem = storagePathProblem(prefix);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});

const storageFolderInputs = z
  .object({
    storageZoneId: idFromString,
    source: z.union([z.string(), z.record(z.string(), z.unknown())]),
    prefix: PrefixSchema.optional(),
    deleteUnmanaged: z.boolean().default(false),
    /** Derived by check from the folder (never set by hand): each file's path in the zone and its SHA-256. */
    files: z.record(z.string(), StorageChecksumSchema).optional(),
  })
  .strict();

type Inputs = z.output<typeof storageFolderInputs>;

/** What the zone holds of the folder, by path in the zone: checksum and size. */
interface Observation {
  zoneId: number;
  files: Record<string, { checksum: string; size: number }>;
}

const inZone = (prefix: string | undefined, relativePath: string) => (prefix ? `${prefix}/${relativePath}` : relativePath);

/** The folder's files by their path in the zone. */
async function sourceFiles(inputs: Pick<Inputs, "source" | "prefix">): Promise<Map<string, LocalFile>> {
  return new Map((await localFiles(inputs.source)).map((f) => [inZone(inputs.prefix, f.relativePath), f]));
}

/** One line per tenth of the work on the plugin's stderr: the engine shows it as the resource's log. */
function progress(what: string, total: number): () => void {
  let done = 0;
  const step = Math.max(1, Math.ceil(total / 10));
  return () => {
    done++;
    if (done % step === 0 || done === total) logProgress(`StorageFolder: ${what} ${done}/${total}`);
  };
}

/** Reads the folder and records each file's checksum (failures name `source` or `prefix`). */
async function completeFiles(inputs: Record<string, unknown>, unknown: ReadonlySet<string>): Promise<{ inputs: Record<string, unknown>; failures: CheckFailure[] }> {
  const { files: _given, ...rest } = inputs;
  if (unknown.has("source") || unknown.has("prefix")) return { inputs: rest, failures: [] }; // preview: read once known
  const problem = sourceProblem(inputs.source);
  if (problem) return { inputs, failures: [{ property: "source", reason: problem }] };
  try {
    const local = [...(await sourceFiles(rest as Inputs))];
    const badPath = local.map(([path]) => ({ path, problem: storagePathProblem(path) })).find((p) => p.problem !== undefined);
    if (badPath) return { inputs, failures: [{ property: "source", reason: `holds a file whose path in the zone ${JSON.stringify(badPath.path)} ${badPath.problem}` }] };
    const files: Record<string, string> = {};
    await forEachBounded(local, HASH_CONCURRENCY, async ([path, file]) => {
      files[path] = await storageChecksum(() => file.open());
    });
    return { inputs: { ...rest, files: Object.fromEntries(Object.entries(files).sort(([a], [b]) => (a < b ? -1 : 1))) }, failures: [] };
  } catch (e) {
    return { inputs, failures: [{ property: "source", reason: `cannot be read: ${(e as Error).message}` }] };
  }
}

/**
 * Makes the zone hold the folder: uploads every file whose checksum differs from `had` (what the zone is known to
 * hold), deletes every path of `had` the folder no longer has. The checksum sent is the one check computed: a file
 * changed since is refused by the API rather than stored unrecorded.
 */
async function sync(ctx: ResourceContext, zone: StorageZoneAccess, inputs: Inputs, had: Record<string, string>): Promise<Observation> {
  const wanted = inputs.files ?? {};
  const local = await sourceFiles(inputs);
  const uploads = Object.keys(wanted).filter((path) => had[path] !== wanted[path]);
  const deletions = Object.keys(had).filter((path) => !(path in wanted));
  const where = `${zone.name}/${inputs.prefix ?? ""}`;
  const uploaded = progress(`uploaded to ${where}`, uploads.length);
  await forEachBounded(uploads, UPLOAD_CONCURRENCY, async (path) => {
    const file = local.get(path);
    if (!file) throw new Error(`StorageFolder: ${path} was in the folder at check but is gone now; run again`);
    await ctx.client.storage.putFile(zone, path, { length: file.size, open: () => file.open() }, { checksum: wanted[path] });
    uploaded();
  });
  const deleted = progress(`deleted from ${where}`, deletions.length);
  await forEachBounded(deletions, UPLOAD_CONCURRENCY, (path) => deleteIfThere(ctx, zone, path).then(deleted));
  const files: Observation["files"] = {};
  for (const [path, checksum] of Object.entries(wanted)) files[path] = { checksum, size: local.get(path)?.size ?? 0 };
  return { zoneId: zone.zoneId, files };
}

/** Deletes a file; one already gone is done. */
async function deleteIfThere(ctx: ResourceContext, zone: StorageZoneAccess, path: string): Promise<void> {
  await ctx.client.storage.deleteFile(zone, path).catch((e: unknown) => {
    if (!isNotFound(e)) throw e;
  });
}

/** What the zone holds below the prefix, by path in the zone. */
async function remoteFiles(ctx: ResourceContext, zone: StorageZoneAccess, prefix: string | undefined): Promise<Record<string, { checksum: string; size: number }>> {
  const listed = await ctx.client.storage.listFiles(zone, prefix ?? "");
  return Object.fromEntries(listed.map((f) => [inZone(prefix, f.path), { checksum: f.checksum ?? "", size: f.length }]));
}

/** Unmanaged files in the zone below the prefix (only `deleteUnmanaged` deletes them): what `had` must include. */
async function withUnmanaged(ctx: ResourceContext, zone: StorageZoneAccess, inputs: Inputs, had: Record<string, string>): Promise<Record<string, string>> {
  if (!inputs.deleteUnmanaged) return had;
  const remote = await remoteFiles(ctx, zone, inputs.prefix);
  return { ...Object.fromEntries(Object.entries(remote).map(([path, f]) => [path, f.checksum])), ...had };
}

/** The folder's fingerprint: SHA-256 of every path and checksum, in path order. */
function folderChecksum(files: Observation["files"]): string {
  const hash = createHash("sha256");
  for (const path of Object.keys(files).sort()) hash.update(`${path}\0${files[path].checksum}\n`);
  return hash.digest("hex").toUpperCase();
}

const storageFolder = defineResource<StorageFolderOutputs, "source">()({
  type: STORAGE_FOLDER_TYPE,
  inputs: storageFolderInputs,
  computedOutputs: ["fileCount", "totalBytes", "checksum"],
  // Another zone or prefix is another set of files: the old ones are deleted after the new ones are uploaded.
  replaceOnChanges: ["storageZoneId", "prefix"],
  identity: ["storageZoneId", "prefix"],
  // A folder's files may hold secrets (a config with a token): a failure on source never prints the value.
  secretInputs: ["source"],
  complete: completeFiles,

  importId: { notImportable: "a folder is the mirror of a local folder the program names, not one object of the API: declare it, and its first up uploads only what differs" },
  describe({ zoneId, files }: Observation, requested: Inputs) {
    const sorted = Object.keys(files).sort();
    return {
      id: `${zoneId}/${requested.prefix ?? ""}`,
      inputs: { ...requested, storageZoneId: zoneId, files: Object.fromEntries(sorted.map((p) => [p, files[p].checksum])) },
      outputs: { fileCount: sorted.length, totalBytes: sorted.reduce((sum, p) => sum + files[p].size, 0), checksum: folderChecksum(files) },
    };
  },

  // No `find`: create lists the zone first and uploads only what differs, so it is safe to repeat and takes over
  // files already there.
  create: (ctx, inputs) =>
    ctx.client.storage.withZone(inputs.storageZoneId, async (zone) => {
      const remote = await remoteFiles(ctx, zone, inputs.prefix);
      const had = Object.fromEntries(Object.entries(remote).filter(([path]) => inputs.deleteUnmanaged || path in (inputs.files ?? {})).map(([path, f]) => [path, f.checksum]));
      return sync(ctx, zone, inputs, had);
    }),

  /** What the zone holds of the managed paths (and, with deleteUnmanaged, of every path below the prefix). */
  get: (ctx, _id, state) =>
    ctx.client.storage.withZone(state.storageZoneId, async (zone) => {
      const remote = await remoteFiles(ctx, zone, state.prefix);
      const managed = state.files ?? {};
      return { zoneId: zone.zoneId, files: Object.fromEntries(Object.entries(remote).filter(([path]) => state.deleteUnmanaged || path in managed)) };
    }),

  update: (ctx, _id, state, inputs) =>
    ctx.client.storage.withZone(inputs.storageZoneId, async (zone) => sync(ctx, zone, inputs, await withUnmanaged(ctx, zone, inputs, state.files ?? {}))),

  // Only the files it manages; a zone already gone took them with it (a NotFoundError: success).
  delete: (ctx, _id, state) =>
    ctx.client.storage.withZone(state.storageZoneId, async (zone) => {
      const paths = Object.keys(state.files ?? {});
      const deleted = progress(`deleted from ${zone.name}/${state.prefix ?? ""}`, paths.length);
      await forEachBounded(paths, UPLOAD_CONCURRENCY, (path) => deleteIfThere(ctx, zone, path).then(deleted));
    }),
});

export interface StorageFolderArgs {
  /** The storage zone (`StorageZone.storageZoneId`). Changing it replaces the resource (the files move). */
  storageZoneId: pulumi.Input<NumericId>;
  /**
   * The files: a path to a local folder (relative to the Pulumi project), a `pulumi.asset.FileArchive` of a folder,
   * or a `pulumi.asset.AssetArchive` of FileAssets and StringAssets. Each file keeps its path below the folder.
   */
  source: pulumi.Input<string | pulumi.asset.Archive>;
  /** A folder in the zone to put the files under, such as `site` (no leading or trailing `/`). Unset: the zone's root. */
  prefix?: pulumi.Input<string>;
  /**
   * Also delete files below the prefix that are not in the folder (uploaded by hand, or by an older deployment
   * of another tool). Default false: only files this resource uploaded are ever deleted.
   */
  deleteUnmanaged?: pulumi.Input<boolean>;
}

// files is derived by check; source also takes the SDK's archive classes, which the wire carries as tagged objects.
argsMatchSchema<StorageFolderArgs, typeof storageFolderInputs, "files", "source">(true);

/** What a StorageFolder holds once uploaded. */
export interface StorageFolderOutputs {
  storageZoneId: number;
  source: string | pulumi.asset.Archive;
  prefix: string | undefined;
  deleteUnmanaged: boolean;
  /** Each file's path in the zone and its SHA-256 (upper-case hex), as last uploaded or refreshed. */
  files: Record<string, string>;
  /** Files managed. */
  fileCount: number;
  /** Their total size in bytes. */
  totalBytes: number;
  /** SHA-256 of every path and checksum: changes whenever any file does. */
  checksum: string;
}

export interface StorageFolder extends OutputProperties<StorageFolderOutputs> {}
/**
 * A local folder's files in a storage zone, as one resource (a site of thousands of files is not thousands of
 * resources). Each `up` uploads only the files that changed and deletes only the ones removed from the folder;
 * refresh notices files changed in the zone by someone else, and the next `up` puts them back. Destroying it deletes
 * the files it uploaded.
 */
export class StorageFolder extends BunnyResource {
  constructor(name: string, args: StorageFolderArgs, opts?: pulumi.CustomResourceOptions) {
    super(storageFolder, name, args, opts);
  }
}
