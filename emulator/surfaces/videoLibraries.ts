import type { FastifyReply } from "fastify";
import { z } from "zod";
import type { EmulatorSurface } from "../context";
import { coreError } from "../errorShapes";
import { COLLECTION, LIBRARY, VIDEO, type VideoLibraryRecord, libraryKey, libraryView } from "./stream";
import { parseBody } from "../unknownProperties";
import { deletePullZone } from "./pullZones/zones";
import { makeLibraryPullZone, setLibraryTokenAuthentication } from "./videoLibraryZones";

/**
 * Video libraries' life cycle in the core API (core-api-v1.0.0.json): AddVideoLibraryEndpoint_AddVideoLibrary
 * (`POST /videolibrary`, 201 VideoLibraryModel), UpdateVideoLibraryEndpoint_UpdateVideoLibrary (`POST
 * /videolibrary/{id}`, 200; 404 without a body), DeleteVideoLibraryEndpoint_DeleteVideoLibrary (204; 404) and
 * ListVideoLibrariesEndpoint_ListVideoLibraries (`GET /videolibrary?page&perPage&search`). Reading one library and
 * resetting its key are in stream.ts. Validation is written here from VideoLibraryCreateModel and
 * VideoLibraryUpdateModel (both `additionalProperties: false`), independently of the client's.
 *
 * Where the document is silent (emulator/README.md lists these): a refused body answers 400 ApiErrorData
 * `{ErrorKey: "validation_error", Field, Message}` naming the first field at fault; a replication region must be a
 * storage region code; a bitrate is at least 1, the watermark's offsets and size 0..100 (%), the captions' font size
 * 0 or more, the player version 1 or more; a library's name need not be unique; deleting a library deletes its videos and collections, and its keys
 * stop working (the Stream routes answer 404 for it).
 * GetVideoLibraryLanguagesEndpoint_GetVideoLibraryLanguages (`GET /videolibrary/languages`) answers every
 * VideoLibraryLanguage at once; which languages and their flags are the emulator's own choice (the document lists none).
 */

/** ShortCode, Name, SupportPlayerTranslation, SupportTranscribing, TranscribingAccuracy (decided, not published). */
const LANGUAGES: [string, string, boolean, boolean, number][] = [
  ["en", "English", true, true, 95],
  ["de", "German", true, true, 90],
  ["fr", "French", true, true, 90],
  ["es", "Spanish", true, true, 90],
  ["it", "Italian", true, true, 85],
  ["pt", "Portuguese", true, true, 85],
  ["nl", "Dutch", true, true, 80],
  ["pl", "Polish", true, true, 75],
  ["sl", "Slovenian", true, false, 0],
  ["ja", "Japanese", true, true, 70],
  ["zh", "Chinese", true, true, 70],
  ["ar", "Arabic", false, true, 60],
  ["la", "Latin", false, false, 0],
];

const REGIONS = ["DE", "UK", "SE", "CZ", "ES", "NY", "LA", "WA", "MI", "SG", "HK", "JP", "SYD", "BR", "JH"];
const RESOLUTIONS = ["240p", "360p", "480p", "720p", "1080p", "1440p", "2160p"];
const CODECS = ["x264", "vp9", "hevc", "av1"];
const CONTROLS = ["play-large", "play", "progress", "current-time", "mute", "volume", "captions", "settings", "pip", "airplay", "fullscreen"];

const int32 = z.number().int().min(-2147483648).max(2147483647);
// The document types these int32 and says what they are; a bitrate below 1, a percentage outside 0..100 or a negative
// size is refused (decided: the Terraform resource bunnynet_stream_library validates bitrates 1.., the rest 0..).
const kbps = int32.min(1, "must be at least 1 (kbit/s)");
const percentage = int32.min(0, "must be within 0..100 (%)").max(100, "must be within 0..100 (%)");
const atLeastZero = int32.min(0, "must not be negative");
const bool = z.boolean().nullish();
const csv = (allowed: string[], min: number) =>
  z
    .string()
    .nullish()
    .refine((v) => v === null || v === undefined || (v === "" ? [] : v.split(",")).every((x) => allowed.includes(x)), { message: `values must be among ${allowed.join(", ")}` })
    .refine((v) => v === null || v === undefined || (v === "" ? 0 : v.split(",").length) >= min, { message: "at least one value is required" });

const shared = {
  PlayerVersion: int32.min(1, "must be at least 1").nullish(),
  EncodingTier: z.union([z.literal(0), z.literal(1)]).nullish(),
  JitEncodingEnabled: bool,
  OutputCodecs: csv(CODECS, 1),
  EnabledResolutions: csv(RESOLUTIONS, 1),
  BlockNoneReferrer: bool,
  EnableMP4Fallback: bool,
  KeepOriginalFiles: bool,
  AllowDirectPlay: bool,
  EnableMultiAudioTrackSupport: bool,
  EnableTranscribing: bool,
  TranscribingCaptionLanguages: z.array(z.string()).nullish(),
  EnableTranscribingTitleGeneration: bool,
  EnableTranscribingDescriptionGeneration: bool,
  EnableTranscribingChaptersGeneration: bool,
  EnableTranscribingMomentsGeneration: bool,
  AllowEarlyPlay: bool,
};

const createSchema = z.strictObject({
  Name: z.string().min(1),
  ReplicationRegions: z.array(z.string().refine((r) => REGIONS.includes(r), { message: `must be one of ${REGIONS.join(", ")}` })).nullish(),
  ...shared,
});

const text = z.string().nullish();
const updateSchema = z.strictObject({
  Name: text,
  ...shared,
  CustomHTML: text,
  PlayerKeyColor: text,
  EnableTokenAuthentication: bool,
  EnableTokenIPVerification: bool,
  ResetToken: bool,
  WatermarkPositionLeft: percentage.nullish(),
  WatermarkPositionTop: percentage.nullish(),
  WatermarkWidth: percentage.nullish(),
  WatermarkHeight: percentage.nullish(),
  ViAiPublisherId: text,
  VastTagUrl: text,
  WebhookUrl: text,
  CaptionsFontSize: atLeastZero.nullish(),
  CaptionsFontColor: text,
  CaptionsBackground: text,
  UILanguage: text,
  PlayerTokenAuthenticationEnabled: bool,
  EnableDRM: bool,
  Controls: csv(CONTROLS, 0),
  PlaybackSpeeds: text,
  Bitrate240p: kbps.nullish(),
  Bitrate360p: kbps.nullish(),
  Bitrate480p: kbps.nullish(),
  Bitrate720p: kbps.nullish(),
  Bitrate1080p: kbps.nullish(),
  Bitrate1440p: kbps.nullish(),
  Bitrate2160p: kbps.nullish(),
  ShowHeatmap: bool,
  EnableContentTagging: bool,
  FontFamily: text,
  EnableCaptionsInPlaylist: bool,
  RememberPlayerPosition: bool,
  UseSeparateAudioStream: bool,
});

function refused(reply: FastifyReply, error: z.ZodError): FastifyReply {
  const issue = error.issues[0];
  const field = [...issue.path.map(String), ...(issue.code === "unrecognized_keys" ? issue.keys.slice(0, 1) : [])].join(".") || "body";
  return coreError(reply, 400, "validation_error", field, `${field}: ${issue.message}`);
}

/** The settings given (null and absent leave a setting as it is). */
function given(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined && v !== null));
}

export const videoLibrariesSurface: EmulatorSurface = {
  name: "videoLibraries",
  seed: () => ({}),
  routes(app, ctx) {
    const libraryOf = (id: string) => (/^\d{1,15}$/.test(id) ? ctx.store.get<VideoLibraryRecord>(LIBRARY, id) : undefined);

    app.post("/videolibrary", async (req, reply) => {
      const parsed = parseBody(createSchema, req.body, ctx.strict);
      if (!parsed.success) return refused(reply, parsed.error);
      const { Name, ReplicationRegions, ...settings } = parsed.data;
      const id = ctx.store.nextId(LIBRARY, 3001);
      const library: VideoLibraryRecord = {
        Id: id,
        Name,
        ApiKey: libraryKey(),
        ReadOnlyApiKey: libraryKey(),
        ...makeLibraryPullZone(ctx, id),
        StorageZoneId: ctx.store.nextId("videolibrary-storagezone", 8001),
        DateCreated: new Date().toISOString(),
        ReplicationRegions: ReplicationRegions ?? [],
        settings: given(settings),
      };
      ctx.store.put(LIBRARY, id, library);
      return reply.code(201).send(libraryView(ctx, library));
    });

    app.post("/videolibrary/:id", async (req, reply) => {
      const library = libraryOf((req.params as { id: string }).id);
      if (!library) return reply.code(404).send();
      const parsed = parseBody(updateSchema, req.body, ctx.strict);
      if (!parsed.success) return refused(reply, parsed.error);
      // Token authentication is not the library's (VideoLibraryModel has no field for it) but its pull zone's
      // (videoLibraryZones.ts); IP verification is taken and never shown.
      const { Name, ResetToken: _reset, EnableTokenAuthentication: token, EnableTokenIPVerification: _ip, ...settings } = parsed.data;
      const updated: VideoLibraryRecord = { ...library, Name: Name ?? library.Name, settings: { ...library.settings, ...given(settings) } };
      ctx.store.transaction(() => {
        ctx.store.put(LIBRARY, library.Id, updated);
        if (typeof token === "boolean") setLibraryTokenAuthentication(ctx, library.PullZoneId, token);
      });
      return libraryView(ctx, updated);
    });

    app.delete("/videolibrary/:id", async (req, reply) => {
      const library = libraryOf((req.params as { id: string }).id);
      if (!library) return reply.code(404).send();
      ctx.store.transaction(() => {
        for (const video of ctx.store.list<{ guid: string }>(VIDEO, library.Id)) ctx.store.delete(VIDEO, video.guid);
        for (const collection of ctx.store.list<{ guid: string }>(COLLECTION, library.Id)) ctx.store.delete(COLLECTION, collection.guid);
        ctx.store.delete(LIBRARY, library.Id);
        deletePullZone(ctx, library.PullZoneId);
      });
      return reply.code(204).send();
    });

    app.get("/videolibrary/languages", async () =>
      LANGUAGES.map(([ShortCode, Name, SupportPlayerTranslation, SupportTranscribing, TranscribingAccuracy]) => ({ ShortCode, Name, SupportPlayerTranslation, SupportTranscribing, TranscribingAccuracy })),
    );

    app.get("/videolibrary", async (req, reply) => {
      const q = req.query as Record<string, string | undefined>;
      const page = Number(q.page ?? 1);
      const perPage = Number(q.perPage ?? 1000);
      if (!Number.isInteger(page) || page < 1 || !Number.isInteger(perPage) || perPage < 1 || perPage > 1000) {
        return coreError(reply, 400, "validation_error", "page", "page must be at least 1 and perPage between 1 and 1000");
      }
      const search = (q.search ?? "").toLowerCase();
      const all = ctx.store.list<VideoLibraryRecord>(LIBRARY).filter((l) => search === "" || l.Name.toLowerCase().includes(search));
      const items = all.slice((page - 1) * perPage, page * perPage).map((l) => libraryView(ctx, l));
      return { Items: items, CurrentPage: page, TotalItems: all.length, HasMoreItems: page * perPage < all.length };
    });
  },
};
