import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { idFromString } from "../schemas/common";
import { THUMBNAIL_FRAMES, type ThumbnailSource, ThumbnailUrlSchema, type Video } from "../schemas/stream";
import { BunnyResource } from "../pulumi/base";
import type { NumericId, OutputProperties } from "../pulumi/types";
import { type CheckFailure, type ResourceContext, argsMatchSchema, defineResource } from "../pulumi";
import { fileInputBytes, fileInputSchema, sha256 } from "./assetInputs";
import { numericPart } from "../pulumi/importIds";

export const VIDEO_THUMBNAIL_TYPE = "VideoThumbnail";

const SOURCES = ["file", "frame", "url"] as const;

const FileInputSchema = fileInputSchema({
  file: "an image file",
  notArchive: "an archive is not an image",
  notRemote: "set url for an image the server fetches itself",
});

const videoThumbnailInputs = z
  .object({
    libraryId: idFromString,
    videoId: z.string().min(1, "must not be empty"),
    file: FileInputSchema.optional(),
    frame: z.number().int().min(1).max(THUMBNAIL_FRAMES).optional(),
    url: ThumbnailUrlSchema.optional(),
    libraryKey: z.string().min(1, "must not be empty").optional(),
    /** Derived by check from the source (never set by hand): what makes a new image of the same file a change. */
    fingerprint: z.string().optional(),
  })
  .strict();

type Inputs = z.output<typeof videoThumbnailInputs>;

/** What the resource sees of a video: the video, and the fingerprint of the thumbnail it now shows as far as Pulumi knows. */
interface Observation {
  video: Video;
  fingerprint: string | undefined;
}

/** The request's source and its fingerprint (sha256 of the bytes, the frame number, sha256 of the URL: a signed URL is a secret). */
async function sourceOf(inputs: Inputs): Promise<{ source: ThumbnailSource; fingerprint: string }> {
  if (inputs.file !== undefined) {
    const file = await fileInputBytes(inputs.file);
    return { source: { file }, fingerprint: sha256(file) };
  }
  if (inputs.frame !== undefined) return { source: { frame: inputs.frame }, fingerprint: `frame:${inputs.frame}` };
  if (inputs.url !== undefined) return { source: { url: inputs.url }, fingerprint: `url:${sha256(Buffer.from(inputs.url, "utf8"))}` };
  throw new Error("VideoThumbnail: no source (check should have refused this)");
}

async function setThumbnail({ client }: ResourceContext, inputs: Inputs): Promise<Observation> {
  const { source, fingerprint } = await sourceOf(inputs);
  await client.stream.setThumbnail(inputs.libraryId, inputs.videoId, source, { libraryKey: inputs.libraryKey });
  return { video: await client.stream.getVideo(inputs.libraryId, inputs.videoId, { libraryKey: inputs.libraryKey }), fingerprint };
}

/** Exactly one source, and its fingerprint (reads the file: a changed file at the same path is a change). */
async function completeSource(inputs: Record<string, unknown>, unknown: ReadonlySet<string>): Promise<{ inputs: Record<string, unknown>; failures: CheckFailure[] }> {
  const { fingerprint: _givenFingerprint, ...rest } = inputs;
  const set = SOURCES.filter((k) => inputs[k] !== undefined && !unknown.has(k));
  if (set.length > 1) {
    const reason = `only one thumbnail source may be set, but ${set.join(" and ")} are set`;
    return { inputs, failures: set.map((property) => ({ property, reason })) };
  }
  if (SOURCES.some((k) => unknown.has(k))) return { inputs: rest, failures: [] }; // preview: judged once known
  // Each candidate is named, so the message appears beside whichever property the user meant to set.
  if (set.length === 0) return { inputs, failures: SOURCES.map((property) => ({ property, reason: `no thumbnail source: set exactly one of ${SOURCES.join(", ")}` })) };
  try {
    const { fingerprint } = await sourceOf(rest as Inputs);
    return { inputs: { ...rest, fingerprint }, failures: [] };
  } catch (e) {
    return { inputs, failures: [{ property: "file", reason: `cannot be read: ${(e as Error).message}` }] };
  }
}

const videoThumbnail = defineResource<VideoThumbnailOutputs, "file">()({
  type: VIDEO_THUMBNAIL_TYPE,
  inputs: videoThumbnailInputs,
  computedOutputs: ["thumbnailFileName", "thumbnailUrl"],
  // The thumbnail belongs to the video: another video is another thumbnail. Sources change it in place.
  replaceOnChanges: ["libraryId", "videoId"],
  identity: ["libraryId", "videoId"],
  // A signed URL carries a token; a StringAsset's text and a library key are secrets.
  secretInputs: ["url", "file", "libraryKey"],
  // The library key is stored encrypted whatever the program passed.
  secretOutputs: ["libraryKey"],
  complete: completeSource,

  importId: {
    format: "<libraryId>/<videoId>",
    parse: ([libraryId, videoId]) => ({ id: `${libraryId}/${videoId}`, state: { libraryId: numericPart(libraryId, "libraryId"), videoId } }),
    notRead: "the image: the next up sets the program's",
  },
  describe({ video, fingerprint }: Observation, requested: Inputs) {
    return {
      id: `${requested.libraryId}/${video.guid}`,
      inputs: { ...requested, fingerprint },
      outputs: { thumbnailFileName: video.thumbnailFileName ?? undefined, thumbnailUrl: video.thumbnailUrl ?? undefined },
    };
  },

  create: setThumbnail,

  /**
   * A thumbnail changed elsewhere shows as a different file name. The fingerprint then records that, so
   * refresh stores inputs that differ from the program's and the next `up` sets the thumbnail again.
   */
  async get({ client }, _id, state) {
    const video = await client.stream.getVideo(state.libraryId, state.videoId, { libraryKey: state.libraryKey });
    const same = (video.thumbnailFileName ?? "") === (state.thumbnailFileName ?? "");
    return { video, fingerprint: same ? state.fingerprint : `changed outside Pulumi (now ${video.thumbnailFileName ?? "none"})` };
  },

  // Only the library key changed (or the same image came another way): nothing to set.
  async update(ctx, _id, state, inputs) {
    if (inputs.fingerprint === undefined || inputs.fingerprint !== state.fingerprint) return setThumbnail(ctx, inputs);
    return { video: await ctx.client.stream.getVideo(inputs.libraryId, inputs.videoId, { libraryKey: inputs.libraryKey }), fingerprint: state.fingerprint };
  },

  // The API has no "no thumbnail": the video keeps the last one set.
  delete: async () => undefined,
});

export interface VideoThumbnailArgs {
  /** The video library. Changing it replaces the resource. */
  libraryId: pulumi.Input<NumericId>;
  /** The video's id (guid). Changing it replaces the resource. */
  videoId: pulumi.Input<string>;
  /**
   * An image to upload: a path (relative to the Pulumi project), or a `pulumi.asset.FileAsset` or
   * `StringAsset`. A change of the file's content is a change, even at the same path.
   */
  file?: pulumi.Input<string | pulumi.asset.Asset>;
  /** One of the frames Stream generated for the video (1..5). */
  frame?: pulumi.Input<number>;
  /** A public http(s) URL of an image that bunny.net fetches. */
  url?: pulumi.Input<string>;
  /** The library's API key. Omitted: looked up with the account key. Always stored as a secret. */
  libraryKey?: pulumi.Input<string>;
}

// fingerprint is derived by check; file also takes the SDK's asset classes, which the wire carries as tagged objects.
argsMatchSchema<VideoThumbnailArgs, typeof videoThumbnailInputs, "fingerprint", "file">(true);

/** What a VideoThumbnail holds once set. */
export interface VideoThumbnailOutputs {
  libraryId: number;
  videoId: string;
  file: string | pulumi.asset.Asset | undefined;
  frame: number | undefined;
  url: string | undefined;
  libraryKey: string | undefined;
  /** What was set: `sha256:<hex>` of the uploaded bytes, `frame:<n>` or `url:sha256:<hex>` of the URL (never the URL: it may be signed). */
  fingerprint: string;
  /** The thumbnail's file name in the library's storage (changes whenever the thumbnail does). */
  thumbnailFileName: string | undefined;
  /** Where the thumbnail is served. */
  thumbnailUrl: string | undefined;
}

export interface VideoThumbnail extends OutputProperties<VideoThumbnailOutputs> {}
/**
 * The thumbnail of a Stream video, set from exactly one of `file`, `frame` or `url`; a change of source
 * sets it again in place. A refresh notices a thumbnail changed elsewhere, and the next `up` sets it back.
 *
 * Destroying the resource leaves the video as it is, with the thumbnail last set: the API cannot remove
 * a thumbnail. Set another source (e.g. `frame: 1`) before removing the resource to change it.
 */
export class VideoThumbnail extends BunnyResource {
  constructor(name: string, args: VideoThumbnailArgs, opts?: pulumi.CustomResourceOptions) {
    super(videoThumbnail, name, args, opts);
  }
}
