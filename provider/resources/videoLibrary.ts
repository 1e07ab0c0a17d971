import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import {
  ControlsCsvSchema,
  CreateVideoLibraryRequestSchema,
  OutputCodecsCsvSchema,
  ResolutionsCsvSchema,
  UpdateVideoLibraryRequestSchema,
  encodingTier,
} from "../schemas/videoLibraries";
import type { EncodingTier } from "../schemas/videoLibraryEnums";
import type { CreateVideoLibraryInput, UpdateVideoLibraryInput, VideoLibraryDetails, VideoLibrarySettings } from "../types.generated";
import { BunnyResource } from "../pulumi/base";
import type { AdoptableArgs, OutputProperties } from "../pulumi/types";
import { adoptionInputs, argsMatchSchema, defineResource } from "../pulumi";
import { ownIdOnly } from "../pulumi/importIds";

/**
 * A Stream video library.
 *
 * Sources: core-api-v1.0.0.json (AddVideoLibraryEndpoint_AddVideoLibrary, UpdateVideoLibraryEndpoint_UpdateVideoLibrary,
 * GetVideoLibraryEndpoint_GetVideoLibrary, DeleteVideoLibraryEndpoint_DeleteVideoLibrary; VideoLibraryCreateModel,
 * VideoLibraryUpdateModel, VideoLibraryModel), the Terraform resource bunnynet_stream_library
 * (internal/provider/resource_stream_library.go: its attributes are the floor).
 *
 * Replication regions are only in the create model: any change replaces the library (and its videos go with it).
 * Everything else, the name too, changes in place. Settings left unset are whatever the API has (the `settings`
 * output shows each as it is). The keys are
 * secret outputs. Deleting the library deletes its videos.
 */

export const VIDEO_LIBRARY_TYPE = "VideoLibrary";

const create = CreateVideoLibraryRequestSchema.shape;
const update = UpdateVideoLibraryRequestSchema.shape;

/** A list given as an array, sent as the API's comma-separated string (checked by the API's rules for it). */
function listOf(csv: z.ZodType<string>) {
  return z.array(z.string()).superRefine((items, ctx) => {
    const r = csv.safeParse(items.join(","));
    if (!r.success) for (const issue of r.error.issues) ctx.addIssue({ code: "custom", message: issue.message });
  });
}
const nonNull = <T extends z.ZodType>(s: z.ZodOptional<z.ZodNullable<T>>) => s.unwrap().unwrap().optional();

const videoLibraryInputs = z
  .object({
    name: create.Name,
    replicationRegions: nonNull(create.ReplicationRegions),
    playerVersion: nonNull(create.PlayerVersion),
    encodingTier: encodingTier.schema.optional(),
    jitEncodingEnabled: nonNull(create.JitEncodingEnabled),
    outputCodecs: listOf(OutputCodecsCsvSchema).optional(),
    enabledResolutions: listOf(ResolutionsCsvSchema).optional(),
    blockNoneReferrer: nonNull(create.BlockNoneReferrer),
    mp4FallbackEnabled: nonNull(create.EnableMP4Fallback),
    keepOriginalFiles: nonNull(create.KeepOriginalFiles),
    directPlayEnabled: nonNull(create.AllowDirectPlay),
    earlyPlayEnabled: nonNull(create.AllowEarlyPlay),
    multiAudioTrackSupportEnabled: nonNull(create.EnableMultiAudioTrackSupport),
    transcribingEnabled: nonNull(create.EnableTranscribing),
    transcribingCaptionLanguages: nonNull(create.TranscribingCaptionLanguages),
    transcribingTitleGenerationEnabled: nonNull(create.EnableTranscribingTitleGeneration),
    transcribingDescriptionGenerationEnabled: nonNull(create.EnableTranscribingDescriptionGeneration),
    contentTaggingEnabled: nonNull(update.EnableContentTagging),
    webhookUrl: nonNull(update.WebhookUrl),
    playerLanguage: nonNull(update.UILanguage),
    playerFontFamily: nonNull(update.FontFamily),
    playerPrimaryColor: nonNull(update.PlayerKeyColor),
    playerControls: listOf(ControlsCsvSchema).optional(),
    playerCustomHead: nonNull(update.CustomHTML),
    captionsFontSize: nonNull(update.CaptionsFontSize),
    captionsFontColor: nonNull(update.CaptionsFontColor),
    captionsBackgroundColor: nonNull(update.CaptionsBackground),
    watchtimeHeatmapEnabled: nonNull(update.ShowHeatmap),
    vastTagUrl: nonNull(update.VastTagUrl),
    viewTokenAuthenticationEnabled: nonNull(update.PlayerTokenAuthenticationEnabled),
    drmEnabled: nonNull(update.EnableDRM),
    watermarkPositionLeft: nonNull(update.WatermarkPositionLeft),
    watermarkPositionTop: nonNull(update.WatermarkPositionTop),
    watermarkWidth: nonNull(update.WatermarkWidth),
    watermarkHeight: nonNull(update.WatermarkHeight),
    bitrate240p: nonNull(update.Bitrate240p),
    bitrate360p: nonNull(update.Bitrate360p),
    bitrate480p: nonNull(update.Bitrate480p),
    bitrate720p: nonNull(update.Bitrate720p),
    bitrate1080p: nonNull(update.Bitrate1080p),
    bitrate1440p: nonNull(update.Bitrate1440p),
    bitrate2160p: nonNull(update.Bitrate2160p),
    ...adoptionInputs,
  })
  .strict();

type Inputs = z.output<typeof videoLibraryInputs>;
/**
 * A video library's name and settings as stored (lists as arrays, the encoding tier as the API's number).
 * @publicType VideoLibrarySettings
 */
type Settings = Omit<Inputs, "adoptExisting">;
type SettingName = Exclude<keyof Inputs, "name" | "replicationRegions" | "adoptExisting">;

/** Each setting's name in the API; `csv`: a list sent as a comma-separated string; `create`: the create model takes it too. */
const API: Record<SettingName, { api: keyof UpdateVideoLibraryInput; create?: true; csv?: true }> = {
  playerVersion: { api: "PlayerVersion", create: true },
  encodingTier: { api: "EncodingTier", create: true },
  jitEncodingEnabled: { api: "JitEncodingEnabled", create: true },
  outputCodecs: { api: "OutputCodecs", create: true, csv: true },
  enabledResolutions: { api: "EnabledResolutions", create: true, csv: true },
  blockNoneReferrer: { api: "BlockNoneReferrer", create: true },
  mp4FallbackEnabled: { api: "EnableMP4Fallback", create: true },
  keepOriginalFiles: { api: "KeepOriginalFiles", create: true },
  directPlayEnabled: { api: "AllowDirectPlay", create: true },
  earlyPlayEnabled: { api: "AllowEarlyPlay", create: true },
  multiAudioTrackSupportEnabled: { api: "EnableMultiAudioTrackSupport", create: true },
  transcribingEnabled: { api: "EnableTranscribing", create: true },
  transcribingCaptionLanguages: { api: "TranscribingCaptionLanguages", create: true },
  transcribingTitleGenerationEnabled: { api: "EnableTranscribingTitleGeneration", create: true },
  transcribingDescriptionGenerationEnabled: { api: "EnableTranscribingDescriptionGeneration", create: true },
  contentTaggingEnabled: { api: "EnableContentTagging" },
  webhookUrl: { api: "WebhookUrl" },
  playerLanguage: { api: "UILanguage" },
  playerFontFamily: { api: "FontFamily" },
  playerPrimaryColor: { api: "PlayerKeyColor" },
  playerControls: { api: "Controls", csv: true },
  playerCustomHead: { api: "CustomHTML" },
  captionsFontSize: { api: "CaptionsFontSize" },
  captionsFontColor: { api: "CaptionsFontColor" },
  captionsBackgroundColor: { api: "CaptionsBackground" },
  watchtimeHeatmapEnabled: { api: "ShowHeatmap" },
  vastTagUrl: { api: "VastTagUrl" },
  viewTokenAuthenticationEnabled: { api: "PlayerTokenAuthenticationEnabled" },
  drmEnabled: { api: "EnableDRM" },
  watermarkPositionLeft: { api: "WatermarkPositionLeft" },
  watermarkPositionTop: { api: "WatermarkPositionTop" },
  watermarkWidth: { api: "WatermarkWidth" },
  watermarkHeight: { api: "WatermarkHeight" },
  bitrate240p: { api: "Bitrate240p" },
  bitrate360p: { api: "Bitrate360p" },
  bitrate480p: { api: "Bitrate480p" },
  bitrate720p: { api: "Bitrate720p" },
  bitrate1080p: { api: "Bitrate1080p" },
  bitrate1440p: { api: "Bitrate1440p" },
  bitrate2160p: { api: "Bitrate2160p" },
};
const SETTINGS = Object.keys(API) as SettingName[];

/** The settings given, by the API's names (`which`: those the create model takes, or the others). */
function settingsToApi(inputs: Settings, which: "create" | "updateOnly" | "all"): Record<string, unknown> {
  const chosen = SETTINGS.filter((k) => inputs[k] !== undefined && (which === "all" || (which === "create") === (API[k].create === true)));
  return Object.fromEntries(chosen.map((k) => [API[k].api, API[k].csv ? (inputs[k] as string[]).join(",") : inputs[k]]));
}

function settingsFromApi(library: VideoLibraryDetails): Record<SettingName, unknown> {
  const read = (k: SettingName) => {
    const v = library[API[k].api];
    if (v === null || v === undefined) return undefined;
    if (API[k].csv) return typeof v === "string" && v !== "" ? v.split(",") : [];
    return Array.isArray(v) ? [...(v as unknown[])] : v;
  };
  return Object.fromEntries(SETTINGS.map((k) => [k, read(k)])) as Record<SettingName, unknown>;
}

const videoLibrary = defineResource<VideoLibraryOutputs>()({
  type: VIDEO_LIBRARY_TYPE,
  inputs: videoLibraryInputs,
  computedOutputs: ["libraryId", "apiKey", "readOnlyApiKey", "pullZoneId", "storageZoneId", "settings"],
  idOutput: { name: "libraryId", numeric: true },
  // Only the create model has replication regions: a change (adding one too) makes a new library.
  replaceOnChanges: ["replicationRegions"],
  identity: ["name"],
  resolvedWhenUnset: ["replicationRegions", ...SETTINGS],
  secretOutputs: ["apiKey", "readOnlyApiKey"],

  importId: ownIdOnly("videoLibraryId", true),
  describe(library: VideoLibraryDetails, requested: Inputs) {
    const real = { ...settingsFromApi(library), replicationRegions: library.ReplicationRegions ? [...library.ReplicationRegions] : [] };
    // A setting the program leaves unset stays unset in the inputs; `settings` shows every one as it is.
    const inputs = Object.fromEntries(Object.keys(real).map((k) => [k, requested[k as keyof Inputs] === undefined ? undefined : real[k as keyof typeof real]]));
    return {
      id: String(library.Id),
      inputs: { ...requested, ...inputs, name: library.Name ?? requested.name } as Inputs,
      outputs: {
        settings: { ...real, name: library.Name ?? requested.name } as VideoLibrarySettings,
        libraryId: library.Id,
        apiKey: library.ApiKey ?? "",
        readOnlyApiKey: library.ReadOnlyApiKey ?? "",
        pullZoneId: library.PullZoneId ?? undefined,
        storageZoneId: library.StorageZoneId ?? undefined,
      },
    };
  },

  find: ({ client }, inputs) => client.videoLibraries.findByName(inputs.name),

  // One call; a second only when settings the create model lacks are given.
  async create({ client }, inputs) {
    const created = await client.videoLibraries.create({ Name: inputs.name, ReplicationRegions: inputs.replicationRegions, ...settingsToApi(inputs, "create") } as CreateVideoLibraryInput);
    const rest = settingsToApi(inputs, "updateOnly");
    if (Object.keys(rest).length === 0) return created;
    const updated = await client.videoLibraries.update(created.Id, rest as UpdateVideoLibraryInput);
    // The update's answer carries the keys too; keep the create's if it did not.
    return { ...updated, ApiKey: updated.ApiKey ?? created.ApiKey, ReadOnlyApiKey: updated.ReadOnlyApiKey ?? created.ReadOnlyApiKey };
  },

  get: ({ client }, id) => client.videoLibraries.get(id),

  update: ({ client }, id, _state, inputs) => client.videoLibraries.update(id, { Name: inputs.name, ...settingsToApi(inputs, "all") } as UpdateVideoLibraryInput),

  delete: async ({ client }, id) => {
    await client.videoLibraries.delete(id);
    client.stream.forgetLibraryKey(id);
  },
});

type Input<T> = pulumi.Input<T>;
type List = Input<Input<string>[]>;

export interface VideoLibraryArgs extends AdoptableArgs {
  /** The library's name (it identifies the library for `adoptExisting`). Changes in place. */
  name: Input<string>;
  /** Storage regions the videos are replicated to (`"NY"`, `"SG"` …). Only set at creation: a change replaces the library and its videos. */
  replicationRegions?: List;
  /** The player version (1 or more; the API has 1 and 2). */
  playerVersion?: Input<number>;
  /** `"Free"` or `"Premium"` (or 0, 1). */
  encodingTier?: Input<keyof typeof EncodingTier | (typeof EncodingTier)[keyof typeof EncodingTier]>;
  /** Just-in-time encoding (Premium tier only). */
  jitEncodingEnabled?: Input<boolean>;
  /** Video codecs encoded: `x264` (Free), and `vp9`, `hevc`, `av1` (Premium). */
  outputCodecs?: List;
  /** Resolutions encoded: `240p` … `2160p`, at least one. */
  enabledResolutions?: List;
  /** Block requests without a Referer. */
  blockNoneReferrer?: Input<boolean>;
  /** MP4 fallback files. */
  mp4FallbackEnabled?: Input<boolean>;
  /** Keep the uploaded originals. */
  keepOriginalFiles?: Input<boolean>;
  /** Direct play URLs. */
  directPlayEnabled?: Input<boolean>;
  /** Early play (exposes originals). */
  earlyPlayEnabled?: Input<boolean>;
  /** Several output audio tracks. */
  multiAudioTrackSupportEnabled?: Input<boolean>;
  /** Automatic transcribing. */
  transcribingEnabled?: Input<boolean>;
  /** Languages captions are transcribed to. */
  transcribingCaptionLanguages?: List;
  /** Titles generated from the transcription. */
  transcribingTitleGenerationEnabled?: Input<boolean>;
  /** Descriptions generated from the transcription. */
  transcribingDescriptionGenerationEnabled?: Input<boolean>;
  /** Content tagging. */
  contentTaggingEnabled?: Input<boolean>;
  /** The URL Stream calls on video events ("" for none). */
  webhookUrl?: Input<string>;
  /** The player's UI language (`"en"` …). */
  playerLanguage?: Input<string>;
  /** The captions' font family. */
  playerFontFamily?: Input<string>;
  /** The player's key colour, a hex colour (`"#ff7755"`, `"#f75"`): checked at preview. */
  playerPrimaryColor?: Input<string>;
  /** The player's controls (`play-large`, `play`, `progress`, `current-time`, `mute`, `volume`, `captions`, `settings`, `pip`, `airplay`, `fullscreen`). */
  playerControls?: List;
  /** Custom HTML in the player's head. */
  playerCustomHead?: Input<string>;
  /** Captions font size (0 or more). */
  captionsFontSize?: Input<number>;
  /** Captions font colour, a hex colour (`"#fff"`). */
  captionsFontColor?: Input<string>;
  /** Captions background colour, a hex colour (`"#000"`). */
  captionsBackgroundColor?: Input<string>;
  /** The watch-time heatmap in the player. */
  watchtimeHeatmapEnabled?: Input<boolean>;
  /** A VAST ad tag URL ("" for none). */
  vastTagUrl?: Input<string>;
  /** Embed view token authentication. */
  viewTokenAuthenticationEnabled?: Input<boolean>;
  /** MediaCage basic DRM. */
  drmEnabled?: Input<boolean>;
  /** Watermark left offset (%, 0..100). */
  watermarkPositionLeft?: Input<number>;
  /** Watermark top offset (%, 0..100). */
  watermarkPositionTop?: Input<number>;
  /** Watermark width (%, 0..100). */
  watermarkWidth?: Input<number>;
  /** Watermark height (%, 0..100). */
  watermarkHeight?: Input<number>;
  /** Encoding bitrates (kbit/s, at least 1) per resolution. */
  bitrate240p?: Input<number>;
  bitrate360p?: Input<number>;
  bitrate480p?: Input<number>;
  bitrate720p?: Input<number>;
  bitrate1080p?: Input<number>;
  bitrate1440p?: Input<number>;
  bitrate2160p?: Input<number>;
}

argsMatchSchema<VideoLibraryArgs, typeof videoLibraryInputs>(true);

/** What a VideoLibrary holds once deployed: every setting as the API has it (enums as numbers), its ids and its keys. */
export interface VideoLibraryOutputs extends VideoLibrarySettings {
  adoptExisting: boolean;
  /** The library's id (what `VideoThumbnail.libraryId` takes). */
  libraryId: number;
  /** The library's own API key (Stream accepts only it). Secret. */
  apiKey: string;
  /** The library's read-only API key. Secret. */
  readOnlyApiKey: string;
  /** The pull zone bunny.net made for the library. */
  pullZoneId: number | undefined;
  /** The storage zone bunny.net made for the library. */
  storageZoneId: number | undefined;
  /** Every setting as the API has it, those the program leaves unset too. */
  settings: VideoLibrarySettings;
}

export interface VideoLibrary extends OutputProperties<VideoLibraryOutputs> {}
/** A Stream video library (`/videolibrary`), with its keys as secret outputs. Deleting it deletes its videos. */
export class VideoLibrary extends BunnyResource {
  constructor(name: string, args: VideoLibraryArgs, opts?: pulumi.CustomResourceOptions) {
    super(videoLibrary, name, args, opts);
  }
}
