import { NotFoundError } from "../http/errors";
import { encodePath } from "../http/pathSegments";
import { PageGuard } from "../http/paging";
import type { Transport } from "../http/transport";
import { validateRequest } from "../http/validation";
import { idFromString } from "../schemas/common";
import { CreateVideoLibraryRequestSchema, UpdateVideoLibraryRequestSchema, VideoLanguageListSchema, VideoLibraryDetailsSchema } from "../schemas/videoLibraries";
import type { CreateVideoLibraryInput, UpdateVideoLibraryInput, VideoLanguage, VideoLibraryDetails } from "../types.generated";
import { z } from "zod";

const NO_BODY = z.unknown();
const WHERE = "/videolibrary/{id}";

/**
 * Video libraries in the core API (core-api-v1.0.0.json): AddVideoLibraryEndpoint_AddVideoLibrary (`POST
 * /videolibrary`, 201 with the library and its keys), UpdateVideoLibraryEndpoint_UpdateVideoLibrary (`POST
 * /videolibrary/{id}`, 200 with the library), GetVideoLibraryEndpoint_GetVideoLibrary and
 * DeleteVideoLibraryEndpoint_DeleteVideoLibrary (204; 404 when unknown). Answers carry `ApiKey` and
 * `ReadOnlyApiKey`: secrets, never logged (the transport redacts error bodies).
 * GetVideoLibraryLanguagesEndpoint_GetVideoLibraryLanguages (`GET /videolibrary/languages`, an array of
 * VideoLibraryLanguage, not paged) is the languages Stream knows, as Terraform's `bunnynet_video_language` reads them.
 */
export class VideoLibrariesClient {
  constructor(private readonly http: Transport) {}

  /** One library (with its keys). NotFoundError when unknown. */
  async get(libraryId: number | string): Promise<VideoLibraryDetails> {
    const path = encodePath("videolibrary", this.id(libraryId, "GET"));
    return (await this.http.request({ api: "core", method: "GET", path, responseSchema: VideoLibraryDetailsSchema, cacheable: true })).body;
  }

  /** Creates a library. Never repeated blindly (a lost answer may have created it: look it up by name). */
  async create(input: CreateVideoLibraryInput): Promise<VideoLibraryDetails> {
    const path = "/videolibrary";
    const json = validateRequest(CreateVideoLibraryRequestSchema, input, "POST", path);
    return (await this.http.request({ api: "core", method: "POST", path, json, responseSchema: VideoLibraryDetailsSchema, retry: "create" })).body;
  }

  /** Changes the settings given; the others stay. Idempotent. */
  async update(libraryId: number | string, input: UpdateVideoLibraryInput): Promise<VideoLibraryDetails> {
    const path = encodePath("videolibrary", this.id(libraryId, "POST"));
    const json = validateRequest(UpdateVideoLibraryRequestSchema, input, "POST", path);
    return (await this.http.request({ api: "core", method: "POST", path, json, responseSchema: VideoLibraryDetailsSchema, retry: "idempotent" })).body;
  }

  /** Deletes a library with its videos. False when it was already gone (404). */
  async delete(libraryId: number | string): Promise<boolean> {
    const path = encodePath("videolibrary", this.id(libraryId, "DELETE"));
    try {
      await this.http.request({ api: "core", method: "DELETE", path, responseSchema: NO_BODY, retry: "idempotent" });
      return true;
    } catch (e) {
      if (e instanceof NotFoundError) return false;
      throw e;
    }
  }

  /** Every library of the account, page by page (`GET /videolibrary`, unfiltered, so every look-up of a deployment shares the pages; bounded by PageGuard). */
  async *list(): AsyncGenerator<VideoLibraryDetails> {
    const guard = new PageGuard("GET", "/videolibrary", this.http.limits);
    for (let page = 1; ; page++) {
      const res = await this.http.request({ api: "core", method: "GET", path: "/videolibrary", query: { page, perPage: 1000 }, responseSchema: LibraryPageSchema, cacheable: true });
      guard.page(res.body.Items);
      yield* res.body.Items;
      if (!res.body.HasMoreItems || res.body.Items.length === 0) return;
    }
  }

  /** The library named exactly `name` (the newest if several), or undefined. */
  async findByName(name: string): Promise<VideoLibraryDetails | undefined> {
    let found: VideoLibraryDetails | undefined;
    for await (const library of this.list()) if (library.Name === name && (!found || library.Id > found.Id)) found = library;
    return found;
  }

  /** Every language Stream can translate its player to or transcribe captions in (one answer, not paged). */
  async languages(): Promise<VideoLanguage[]> {
    return (await this.http.request({ api: "core", method: "GET", path: "/videolibrary/languages", responseSchema: VideoLanguageListSchema, cacheable: true })).body;
  }

  private id(libraryId: number | string, method: string): number {
    return validateRequest(idFromString, libraryId, method, WHERE, "id");
  }
}

/** PaginationListModelOfVideoLibraryModel. */
const LibraryPageSchema = z.object({
  Items: z
    .array(VideoLibraryDetailsSchema)
    .nullish()
    .transform((i) => i ?? []),
  HasMoreItems: z.boolean().nullish(),
});
