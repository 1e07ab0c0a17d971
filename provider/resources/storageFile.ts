import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { StorageZoneAccess } from "../client/storage";
import { idFromString } from "../schemas/common";
import { StorageChecksumSchema, StorageFilePathSchema } from "../schemas/storage";
import type { StorageObject } from "../types.generated";
import { BunnyResource } from "../pulumi/base";
import type { AdoptableArgs, NumericId, OutputProperties } from "../pulumi/types";
import { type CheckFailure, type ResourceContext, adoptionInputs, argsMatchSchema, defineResource } from "../pulumi";
import type { SizedStream } from "../http/requestSpec";
import { type FileInput, fileInputSchema, fileInputStream } from "./assetInputs";
import { storageChecksum } from "./localFolder";
import { numericPart } from "../pulumi/importIds";

/**
 * One file in a storage zone, over the Storage API (provider/client/storage.ts cites it). Sources:
 * BunnyWay/terraform-provider-bunnynet internal/provider/resource_storage_file.go (`bunnynet_storage_file`: zone and
 * path replace; content or source; content_type; computed size, date_created, date_modified, checksum) and its
 * internal/api/storage_file.go (PUT with the SHA-256 `Checksum`, the zone's password as `AccessKey`); its issue #40:
 * a changed local file at the same `source` path was not uploaded again. Here check reads the content and records
 * its SHA-256 in `checksum`, so a changed file is a change at preview, and refresh reads the zone's checksum, so a
 * file changed by someone else shows as drift.
 */

export const STORAGE_FILE_TYPE = "StorageFile";
const SOURCES = ["content", "source"] as const;

const storageFileInputs = z
  .object({
    storageZoneId: idFromString,
    path: StorageFilePathSchema,
    content: z.string().optional(),
    source: fileInputSchema({ file: "a file", notArchive: "an archive is not one file: use StorageFolder for a folder", notRemote: "download it first, or use content" }).optional(),
    contentType: z.string().min(1, "must not be empty (leave it unset for the type bunny.net derives)").max(255).optional(),
    /** Derived by check from content or source (never set by hand): the SHA-256 that makes a changed file a change. */
    checksum: StorageChecksumSchema.optional(),
    ...adoptionInputs,
  })
  .strict();

type Inputs = z.output<typeof storageFileInputs>;

/** A file as the zone lists it, with where it is. */
interface Observation {
  zone: StorageZoneAccess;
  path: string;
  object: StorageObject;
}

/** The bytes to upload: a path is streamed from disk (sent with its size as Content-Length), text is sent as UTF-8. */
async function bodyOf(inputs: Inputs): Promise<Uint8Array | SizedStream> {
  if (inputs.content !== undefined) return Buffer.from(inputs.content, "utf8");
  const source = inputs.source as FileInput;
  return typeof source === "object" && "text" in source ? Buffer.from(source.text, "utf8") : fileInputStream(source);
}

/** The checksum of the file's bytes (a file on disk is streamed: a large one is never held). */
const checksumOf = async (inputs: Inputs): Promise<string> => storageChecksum(await bodyOf(inputs));

async function observe(ctx: ResourceContext, zone: StorageZoneAccess, path: string): Promise<Observation | undefined> {
  const object = await ctx.client.storage.describeFile(zone, path);
  return object ? { zone, path, object } : undefined;
}

async function upload(ctx: ResourceContext, inputs: Inputs): Promise<Observation> {
  const checksum = inputs.checksum ?? (await checksumOf(inputs));
  return ctx.client.storage.withZone(inputs.storageZoneId, async (zone) => {
    await ctx.client.storage.putFile(zone, inputs.path, await bodyOf(inputs), { checksum, contentType: inputs.contentType });
    const seen = await observe(ctx, zone, inputs.path);
    if (!seen) throw new Error(`StorageFile ${inputs.path}: uploaded, but the zone does not list it`);
    return seen;
  });
}

/** Exactly one of content and source, and the checksum of what it holds (reads the file: a changed file is a change). */
async function completeContent(inputs: Record<string, unknown>, unknown: ReadonlySet<string>): Promise<{ inputs: Record<string, unknown>; failures: CheckFailure[] }> {
  const { checksum: _given, ...rest } = inputs;
  const set = SOURCES.filter((k) => inputs[k] !== undefined && !unknown.has(k));
  if (set.length > 1) return { inputs, failures: set.map((property) => ({ property, reason: "only one of content and source may be set" })) };
  if (SOURCES.some((k) => unknown.has(k))) return { inputs: rest, failures: [] }; // preview: judged once known
  if (set.length === 0) return { inputs, failures: SOURCES.map((property) => ({ property, reason: "set exactly one of content (text) and source (a file)" })) };
  try {
    return { inputs: { ...rest, checksum: await checksumOf(rest as Inputs) }, failures: [] };
  } catch (e) {
    return { inputs, failures: [{ property: "source", reason: `cannot be read: ${(e as Error).message}` }] };
  }
}

const storageFile = defineResource<StorageFileOutputs, "source">()({
  type: STORAGE_FILE_TYPE,
  inputs: storageFileInputs,
  computedOutputs: ["size", "dateCreated", "dateModified"],
  // Another zone or path is another file; the content changes in place (a PUT replaces the file).
  replaceOnChanges: ["storageZoneId", "path"],
  identity: ["storageZoneId", "path"],
  // Adopting a file at the path uploads the program's content over it.
  setOnAdoption: ["content", "source", "checksum", "contentType"],
  // A file's text may be a secret (a config file with a token).
  secretInputs: ["content", "source"],
  complete: completeContent,

  importId: {
    format: "<storageZoneId>/<path>",
    parse: ([storageZoneId, path]) => ({ id: `${storageZoneId}/${path}`, state: { storageZoneId: numericPart(storageZoneId, "storageZoneId"), path } }),
    notRead: "content (only its checksum): the next up uploads the program's content or source",
  },
  describe({ zone, path, object }: Observation, requested: Inputs) {
    return {
      id: `${zone.zoneId}/${path}`,
      inputs: {
        ...requested,
        storageZoneId: zone.zoneId,
        path,
        checksum: object.Checksum ?? undefined,
        // Only a type the program set is compared: an unset one is whatever bunny.net derives from the name.
        contentType: requested.contentType === undefined ? undefined : object.ContentType,
      },
      outputs: { size: object.Length, dateCreated: object.DateCreated, dateModified: object.LastChanged },
    };
  },

  find: (ctx, inputs) => ctx.client.storage.withZone(inputs.storageZoneId, (zone) => observe(ctx, zone, inputs.path)),

  create: upload,

  get: (ctx, _id, state) => ctx.client.storage.withZone(state.storageZoneId, (zone) => observe(ctx, zone, state.path)),

  // Only the content type, or the same bytes another way: the PUT is the one way to change either.
  update: (ctx, _id, _state, inputs) => upload(ctx, inputs),

  // A file already gone (or a zone deleted with its files) is a NotFoundError: success.
  delete: (ctx, _id, state) => ctx.client.storage.withZone(state.storageZoneId, (zone) => ctx.client.storage.deleteFile(zone, state.path)),
});

export interface StorageFileArgs extends AdoptableArgs {
  /** The storage zone (`StorageZone.storageZoneId`). Changing it replaces the file. */
  storageZoneId: pulumi.Input<NumericId>;
  /** The file's path inside the zone, such as `index.html` or `css/site.css`. Changing it replaces the file. */
  path: pulumi.Input<string>;
  /** The file's content as text (UTF-8). Set exactly one of content and source. */
  content?: pulumi.Input<string>;
  /**
   * The file to upload: a path (relative to the Pulumi project), or a `pulumi.asset.FileAsset` or `StringAsset`.
   * A change of the file's content is a change, even at the same path.
   */
  source?: pulumi.Input<string | pulumi.asset.Asset>;
  /** The `Content-Type` it is served with. Unset: bunny.net derives it from the name. */
  contentType?: pulumi.Input<string>;
}

// checksum is derived by check; source also takes the SDK's asset classes, which the wire carries as tagged objects.
argsMatchSchema<StorageFileArgs, typeof storageFileInputs, "checksum", "source">(true);

/** What a StorageFile holds once uploaded. */
export interface StorageFileOutputs {
  storageZoneId: number;
  path: string;
  content: string | undefined;
  source: string | pulumi.asset.Asset | undefined;
  contentType: string | undefined;
  adoptExisting: boolean;
  /** The upper-case SHA-256 hex of the content (the Storage API's `Checksum`): a changed local file uploads again. */
  checksum: string;
  /** Bytes. */
  size: number;
  /** When the zone first stored the file. */
  dateCreated: string;
  /** When the file was last uploaded. */
  dateModified: string;
}

export interface StorageFile extends OutputProperties<StorageFileOutputs> {}
/**
 * One file in a storage zone (`PUT /{zone}/{path}` on the Storage API, with the zone's password, never stored).
 * A changed local file uploads again; refresh notices a file changed by someone else, and the next `up` puts it back.
 * For a whole site, use StorageFolder: one resource for every file of a folder.
 */
export class StorageFile extends BunnyResource {
  constructor(name: string, args: StorageFileArgs, opts?: pulumi.CustomResourceOptions) {
    super(storageFile, name, args, opts);
  }
}
