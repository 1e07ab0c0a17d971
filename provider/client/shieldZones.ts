import { z } from "zod";
import { NotFoundError, UnexpectedResponseError } from "../http/errors";
import { encodePath } from "../http/pathSegments";
import type { Transport } from "../http/transport";
import { validateRequest } from "../http/validation";
import { idFromString } from "../schemas/common";
import { GenericRequestResponseSchema } from "../schemas/shield";
import { CUSTOM_PAGE_TYPES } from "../schemas/shieldEnums";
import {
  BotDetectionSchema,
  CreateShieldZoneRequestSchema,
  ShieldZoneDetailsSchema,
  ShieldZoneWriteAnswerSchema,
  UpdateBotDetectionRequestSchema,
  UpdateShieldZoneRequestSchema,
  UpdateUploadScanningRequestSchema,
  UploadScanningSchema,
} from "../schemas/shieldZones";
import type { BotDetection, CreateShieldZoneInput, ShieldZoneDetails, UpdateBotDetectionInput, UpdateShieldZoneInput, UpdateUploadScanningInput, UploadScanning } from "../types.generated";
import { ANY_ANSWER, falseWhenGone, shieldAnswer } from "./shieldAnswers";

/** A custom response page: `block`, `challenge` or `rateLimit` (the API's `ratelimit`). */
export type CustomPageName = keyof typeof CUSTOM_PAGE_TYPES;
const customPageName = z.enum(Object.keys(CUSTOM_PAGE_TYPES) as [CustomPageName, ...CustomPageName[]]);
/** The largest page sent or read (the emulator's bound; the API documents none). */
export const MAX_PAGE_BYTES = 1024 * 1024;
const customPageBody = z.string().refine((html) => html.trim() !== "", { message: "must not be empty" }).refine((html) => Buffer.byteLength(html) <= MAX_PAGE_BYTES, { message: `must be at most ${MAX_PAGE_BYTES} bytes` });

/**
 * Shield zones: the Shield protection (plan, WAF, DDoS, learning mode) of one pull zone.
 *
 * shield-api-v1.0.0.json: "Create Shield Zone" (`POST /shield/shield-zone`, CreateShieldZoneRequest →
 * CreateShieldZoneResponse, 409 when the pull zone has one already), "Update Shield Zone" (`PATCH
 * /shield/shield-zone`, UpdateShieldZoneRequest), "Get Shield Zone Configuration" (`GET /shield/shield-zone/{id}`,
 * 200 GetShieldZoneResponse or 202 AcceptedResult) and "…by Pull Zone" (`GET …/get-by-pullzone/{pullZoneId}`).
 * There is no delete. Writes answer the request back (`{data: <request>, error}`), not the zone: the zone is read
 * after each write. Answers are read by `shieldAnswer` (envelopes, errors in 2xx, 202), like the rules'.
 *
 * Beside the zone's settings, its own operations: "Get Current Bot Detection" / "Update Bot Detection" (`GET`/`PATCH
 * /shield/shield-zone/{shieldZoneId}/bot-detection`), "Get Upload Scanning" / "Update Upload Scanning"
 * (`…/upload-scanning`), and "Upload / Get / Delete Custom Response Page" (`PUT`/`GET`/`DELETE
 * …/custom-page/{pageType}`; the document gives the page no media type: it is sent and read as the raw HTML, as the
 * Terraform provider does, internal/api/pullzone_shield.go, with the page types `block`, `challenge`, `ratelimit`).
 */
export class ShieldZonesClient {
  constructor(private readonly http: Transport) {}

  /** One shield zone. NotFoundError when unknown, or not ready yet (202). */
  async get(shieldZoneId: number | string): Promise<ShieldZoneDetails> {
    const path = encodePath("shield", "shield-zone", validateRequest(idFromString, shieldZoneId, "GET", "/shield/shield-zone/{shieldZoneId}", "shieldZoneId"));
    return this.read(path, true);
  }

  /** The shield zone of a pull zone. NotFoundError when it has none (or it is not ready: 202). */
  async getByPullZone(pullZoneId: number | string): Promise<ShieldZoneDetails> {
    const where = "/shield/shield-zone/get-by-pullzone/{pullZoneId}";
    const path = encodePath("shield", "shield-zone", "get-by-pullzone", validateRequest(idFromString, pullZoneId, "GET", where, "pullZoneId"));
    return this.read(path, true);
  }

  /** The pull zone's shield zone, or undefined when it has none. */
  async findByPullZone(pullZoneId: number | string): Promise<ShieldZoneDetails | undefined> {
    try {
      return await this.getByPullZone(pullZoneId);
    } catch (e) {
      if (e instanceof NotFoundError) return undefined;
      throw e;
    }
  }

  /**
   * Creates the shield zone of a pull zone, then reads it (the answer echoes the request, not the zone).
   * AlreadyExistsError (409) when the pull zone has one. Never repeated blindly: after a lost answer, look it up by pull zone.
   */
  async create(input: CreateShieldZoneInput): Promise<ShieldZoneDetails> {
    const path = "/shield/shield-zone";
    const body = validateRequest(CreateShieldZoneRequestSchema, input, "POST", path);
    const res = await this.http.request({ api: "core", method: "POST", path, json: body, responseSchema: ANY_ANSWER, retry: "create" });
    const answer = shieldAnswer("POST", path, res.status, res.body, ShieldZoneWriteAnswerSchema);
    const id = answer.kind === "value" ? (answer.value.shieldZone?.shieldZoneId ?? answer.value.shieldZoneId) : undefined;
    if (id) return this.fresh(id);
    // Accepted without the id: the pull zone names it.
    return this.readBack(() => this.getByPullZoneFresh(body.pullZoneId), "POST", path);
  }

  /** Changes the settings given (the others stay as they are), then reads the zone. Idempotent. */
  async update(input: UpdateShieldZoneInput): Promise<ShieldZoneDetails> {
    const path = "/shield/shield-zone";
    const body = validateRequest(UpdateShieldZoneRequestSchema, input, "PATCH", path);
    const res = await this.http.request({ api: "core", method: "PATCH", path, json: body, responseSchema: ANY_ANSWER, retry: "idempotent" });
    shieldAnswer("PATCH", path, res.status, res.body, ShieldZoneWriteAnswerSchema);
    return this.readBack(() => this.fresh(body.shieldZoneId), "PATCH", path);
  }

  /** The zone's bot detection. ForbiddenError on a plan without it (`invalid_plan_type.bot_detection`). */
  async getBotDetection(shieldZoneId: number | string): Promise<BotDetection> {
    const path = this.featurePath(shieldZoneId, "bot-detection", "GET");
    const res = await this.http.request({ api: "core", method: "GET", path, responseSchema: ANY_ANSWER });
    return this.featureAnswer("GET", path, res.status, res.body, BotDetectionSchema);
  }

  /** Changes the bot-detection settings given (idempotent). */
  async updateBotDetection(shieldZoneId: number | string, input: UpdateBotDetectionInput): Promise<BotDetection> {
    const path = this.featurePath(shieldZoneId, "bot-detection", "PATCH");
    const body = validateRequest(UpdateBotDetectionRequestSchema, input, "PATCH", path);
    const res = await this.http.request({ api: "core", method: "PATCH", path, json: body, responseSchema: ANY_ANSWER, retry: "idempotent" });
    return this.featureAnswer("PATCH", path, res.status, res.body, BotDetectionSchema);
  }

  /** The zone's upload scanning. */
  async getUploadScanning(shieldZoneId: number | string): Promise<UploadScanning> {
    const path = this.featurePath(shieldZoneId, "upload-scanning", "GET");
    const res = await this.http.request({ api: "core", method: "GET", path, responseSchema: ANY_ANSWER });
    return this.featureAnswer("GET", path, res.status, res.body, UploadScanningSchema);
  }

  /** Changes the upload-scanning settings given (idempotent). */
  async updateUploadScanning(shieldZoneId: number | string, input: UpdateUploadScanningInput): Promise<UploadScanning> {
    const path = this.featurePath(shieldZoneId, "upload-scanning", "PATCH");
    const body = validateRequest(UpdateUploadScanningRequestSchema, input, "PATCH", path);
    const res = await this.http.request({ api: "core", method: "PATCH", path, json: body, responseSchema: ANY_ANSWER, retry: "idempotent" });
    return this.featureAnswer("PATCH", path, res.status, res.body, UploadScanningSchema);
  }

  /** A custom response page's HTML, or undefined when the zone has none of that type (404). Read up to MAX_PAGE_BYTES. */
  async getCustomPage(shieldZoneId: number | string, page: CustomPageName): Promise<string | undefined> {
    const path = this.pagePath(shieldZoneId, page, "GET");
    try {
      const res = await this.http.stream({ api: "core", method: "GET", path, retry: "idempotent" });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        size += (chunk as Buffer).length;
        if (size > MAX_PAGE_BYTES) {
          res.body.destroy();
          throw new UnexpectedResponseError({ method: "GET", path, status: res.status, serverMessage: `the page is larger than ${MAX_PAGE_BYTES} bytes` });
        }
        chunks.push(chunk as Buffer);
      }
      return Buffer.concat(chunks).toString("utf8");
    } catch (e) {
      if (e instanceof NotFoundError) return undefined;
      throw e;
    }
  }

  /** Sets a custom response page (the whole HTML; idempotent). */
  async putCustomPage(shieldZoneId: number | string, page: CustomPageName, html: string): Promise<void> {
    const path = this.pagePath(shieldZoneId, page, "PUT");
    const bytes = Buffer.from(validateRequest(customPageBody, html, "PUT", path, "html"), "utf8");
    const res = await this.http.request({ api: "core", method: "PUT", path, body: bytes, contentType: "text/html; charset=utf-8", responseSchema: ANY_ANSWER, retry: "idempotent" });
    shieldAnswer("PUT", path, res.status, res.body, GenericRequestResponseSchema);
  }

  /** Removes a custom response page. False when there was none (404). */
  async deleteCustomPage(shieldZoneId: number | string, page: CustomPageName): Promise<boolean> {
    const path = this.pagePath(shieldZoneId, page, "DELETE");
    return falseWhenGone(async () => {
      const res = await this.http.request({ api: "core", method: "DELETE", path, responseSchema: ANY_ANSWER, retry: "idempotent" });
      shieldAnswer("DELETE", path, res.status, res.body, GenericRequestResponseSchema);
    });
  }


  private featurePath(shieldZoneId: number | string, feature: string, method: string): string {
    return encodePath("shield", "shield-zone", validateRequest(idFromString, shieldZoneId, method, `/shield/shield-zone/{shieldZoneId}/${feature}`, "shieldZoneId"), feature);
  }

  private pagePath(shieldZoneId: number | string, page: CustomPageName, method: string): string {
    const pageType = validateRequest(customPageName, page, method, "/shield/shield-zone/{shieldZoneId}/custom-page/{pageType}", "page");
    return encodePath("shield", "shield-zone", validateRequest(idFromString, shieldZoneId, method, "/shield/shield-zone/{shieldZoneId}/custom-page", "shieldZoneId"), "custom-page", CUSTOM_PAGE_TYPES[pageType]);
  }

  /** Read as the document's `{data, error}` (the settings' fields are all optional: unwrapped, the envelope would pass for them). */
  private featureAnswer<S extends z.ZodType>(method: string, path: string, status: number, body: unknown, schema: S): z.output<S> {
    const answer = shieldAnswer(method, path, status, body, z.object({ data: schema }));
    if (answer.kind === "value") return (answer.value as { data: z.output<S> }).data;
    throw new UnexpectedResponseError({ method, path, status, serverMessage: "answered 202 Accepted without the settings; run again" });
  }

  private fresh(shieldZoneId: number): Promise<ShieldZoneDetails> {
    return this.read(encodePath("shield", "shield-zone", shieldZoneId), false);
  }

  private getByPullZoneFresh(pullZoneId: number): Promise<ShieldZoneDetails> {
    return this.read(encodePath("shield", "shield-zone", "get-by-pullzone", pullZoneId), false);
  }

  private async readBack(read: () => Promise<ShieldZoneDetails>, method: string, path: string): Promise<ShieldZoneDetails> {
    try {
      return await read();
    } catch (e) {
      if (!(e instanceof NotFoundError)) throw e;
      throw new UnexpectedResponseError({ method, path, status: 202, serverMessage: `the shield zone was accepted but cannot be read yet (${e.message}); run again` });
    }
  }

  private async read(path: string, cacheable: boolean): Promise<ShieldZoneDetails> {
    const res = await this.http.request({ api: "core", method: "GET", path, responseSchema: ANY_ANSWER, cacheable });
    const answer = shieldAnswer("GET", path, res.status, res.body, ShieldZoneDetailsSchema);
    if (answer.kind === "value") return answer.value;
    throw new NotFoundError({ method: "GET", path, status: res.status, serverMessage: "the shield zone is not ready or gone (202 Accepted)" });
  }
}
