import type { FastifyReply } from "fastify";
import { z } from "zod";
import type { EmulatorSurface } from "../context";
import { shieldError } from "../errorShapes";
import { envelopeError, numericId, validationMessage, zoneOf } from "./shield";

/**
 * A Shield zone's bot detection, upload scanning and custom response pages.
 *
 * Sources: shield-api-v1.0.0.json ("Get Current Bot Detection" / "Update Bot Detection" `GET`/`PATCH
 * /shield/shield-zone/{shieldZoneId}/bot-detection`: BotDetectionConfigurationState, UpdateBotDetectionRequest,
 * BotDetectionExecutionMode, BotDetectionSensitivity, BrowserFingerprintAggression; "Get Upload Scanning" / "Update
 * Upload Scanning" `…/upload-scanning`: UploadScanningConfigurationState, UpdateUploadScanningConfigurationRequest,
 * UploadScanningScannerMode; "Upload / Get / Delete Custom Response Page" `PUT`/`GET`/`DELETE
 * …/custom-page/{pageType}`, GenericRequestResponse, 404 documented), and the Terraform provider's calls
 * (internal/api/pullzone_shield.go: page types `block`, `challenge` and `ratelimit`, the page sent as the raw body;
 * on the Basic plan bot detection answers 202 `invalid_plan_type.bot_detection` and pages
 * `feature_not_available_on_plan`).
 *
 * Decided (the document is silent): the page's body is taken as text (text/html, text/plain or a JSON string), at most
 * 1 MiB, not empty, and read back as text/html; a zone without a page answers 404 `custom_page.not_found`; bot
 * detection defaults to LogOnly with every sensitivity Low, aggression Low, complex fingerprinting off; upload scanning
 * starts off with both scanners Disabled.
 */

const BOT_DETECTION = "shieldBotDetection";
const UPLOAD_SCANNING = "shieldUploadScanning";
const CUSTOM_PAGE = "shieldCustomPage";
const PAGE_TYPES = ["block", "challenge", "ratelimit"];
const MAX_PAGE_BYTES = 1024 * 1024;

const sensitivity = z.number().int().min(0).max(3);
const botDetectionBody = z.strictObject({
  shieldZoneId: z.number().int().optional(),
  executionMode: z.number().int().min(0).max(1).optional(),
  requestIntegrity: z.strictObject({ sensitivity: sensitivity.optional() }).optional(),
  ipAddress: z.strictObject({ sensitivity: sensitivity.optional() }).optional(),
  browserFingerprint: z.strictObject({ sensitivity: sensitivity.optional(), aggression: z.number().int().min(0).max(4).optional(), complexEnabled: z.boolean().nullish() }).optional(),
});
const scannerMode = z.number().int().min(0).max(2);
const uploadScanningBody = z.strictObject({
  shieldZoneId: z.number().int().optional(),
  isEnabled: z.boolean().nullish(),
  csamScanningMode: scannerMode.optional(),
  antivirusScanningMode: scannerMode.optional(),
});

interface BotDetectionRecord {
  executionMode: number;
  requestIntegrity: { sensitivity: number };
  ipAddress: { sensitivity: number };
  browserFingerprint: { sensitivity: number; aggression: number; complexEnabled: boolean };
}
interface UploadScanningRecord {
  isEnabled: boolean;
  csamScanningMode: number;
  antivirusScanningMode: number;
}

const BOT_DETECTION_DEFAULTS: BotDetectionRecord = {
  executionMode: 0,
  requestIntegrity: { sensitivity: 1 },
  ipAddress: { sensitivity: 1 },
  browserFingerprint: { sensitivity: 1, aggression: 1, complexEnabled: false },
};
const UPLOAD_SCANNING_DEFAULTS: UploadScanningRecord = { isEnabled: false, csamScanningMode: 0, antivirusScanningMode: 0 };

function invalid(reply: FastifyReply, error: z.ZodError, errorKey: string): FastifyReply {
  const message = validationMessage(error);
  return reply.code(400).send({ error: { statusCode: 400, success: false, errorKey, message: `The request is invalid. ${message}` } });
}

export const shieldZoneFeaturesSurface: EmulatorSurface = {
  name: "shieldZoneFeatures",
  seed: () => ({}),
  routes(app, ctx) {
    app.addContentTypeParser("text/html", { parseAs: "string" }, (_req, body, done) => done(null, body));
    const zoneFrom = (params: unknown) => {
      const id = numericId((params as { shieldZoneId: string }).shieldZoneId);
      return id === undefined ? undefined : zoneOf(ctx, id);
    };
    const zoneGone = (reply: FastifyReply) => shieldError(reply, 404, "The shield zone was not found.", "shield_zone.not_found");
    const botDetectionOf = (id: number) => ctx.store.get<BotDetectionRecord>(BOT_DETECTION, id) ?? BOT_DETECTION_DEFAULTS;
    const uploadScanningOf = (id: number) => ctx.store.get<UploadScanningRecord>(UPLOAD_SCANNING, id) ?? UPLOAD_SCANNING_DEFAULTS;
    const basicBotDetection = (reply: FastifyReply) => envelopeError(reply, "invalid_plan_type.bot_detection", "Bot detection is not available on the Basic plan.");

    app.get("/shield/shield-zone/:shieldZoneId/bot-detection", async (req, reply) => {
      const zone = zoneFrom(req.params);
      if (!zone) return zoneGone(reply);
      if (zone.planType === 0) return basicBotDetection(reply);
      return { data: { shieldZoneId: zone.shieldZoneId, ...botDetectionOf(zone.shieldZoneId) } };
    });

    app.patch("/shield/shield-zone/:shieldZoneId/bot-detection", async (req, reply) => {
      const zone = zoneFrom(req.params);
      if (!zone) return zoneGone(reply);
      const parsed = botDetectionBody.safeParse(req.body);
      if (!parsed.success) return invalid(reply, parsed.error, "bot_detection.validation");
      if (zone.planType === 0) return basicBotDetection(reply);
      const current = botDetectionOf(zone.shieldZoneId);
      const b = parsed.data;
      const updated: BotDetectionRecord = {
        executionMode: b.executionMode ?? current.executionMode,
        requestIntegrity: { sensitivity: b.requestIntegrity?.sensitivity ?? current.requestIntegrity.sensitivity },
        ipAddress: { sensitivity: b.ipAddress?.sensitivity ?? current.ipAddress.sensitivity },
        browserFingerprint: {
          sensitivity: b.browserFingerprint?.sensitivity ?? current.browserFingerprint.sensitivity,
          aggression: b.browserFingerprint?.aggression ?? current.browserFingerprint.aggression,
          complexEnabled: b.browserFingerprint?.complexEnabled ?? current.browserFingerprint.complexEnabled,
        },
      };
      ctx.store.put(BOT_DETECTION, zone.shieldZoneId, updated, zone.shieldZoneId);
      return { data: { shieldZoneId: zone.shieldZoneId, ...updated } };
    });

    app.get("/shield/shield-zone/:shieldZoneId/upload-scanning", async (req, reply) => {
      const zone = zoneFrom(req.params);
      if (!zone) return zoneGone(reply);
      return { data: { shieldZoneId: zone.shieldZoneId, ...uploadScanningOf(zone.shieldZoneId) } };
    });

    app.patch("/shield/shield-zone/:shieldZoneId/upload-scanning", async (req, reply) => {
      const zone = zoneFrom(req.params);
      if (!zone) return zoneGone(reply);
      const parsed = uploadScanningBody.safeParse(req.body);
      if (!parsed.success) return invalid(reply, parsed.error, "upload_scanning.validation");
      const current = uploadScanningOf(zone.shieldZoneId);
      const b = parsed.data;
      const updated: UploadScanningRecord = {
        isEnabled: b.isEnabled ?? current.isEnabled,
        csamScanningMode: b.csamScanningMode ?? current.csamScanningMode,
        antivirusScanningMode: b.antivirusScanningMode ?? current.antivirusScanningMode,
      };
      ctx.store.put(UPLOAD_SCANNING, zone.shieldZoneId, updated, zone.shieldZoneId);
      return { data: { shieldZoneId: zone.shieldZoneId, ...updated } };
    });

    const pageKey = (shieldZoneId: number, pageType: string) => `${shieldZoneId}:${pageType}`;
    const pageRoute = "/shield/shield-zone/:shieldZoneId/custom-page/:pageType";
    /** The zone and page type of a page request, or the answer refusing it. */
    const pageTarget = (req: { params: unknown }, reply: FastifyReply) => {
      const zone = zoneFrom(req.params);
      const { pageType } = req.params as { pageType: string };
      if (!zone) return { refused: zoneGone(reply) };
      if (!PAGE_TYPES.includes(pageType)) return { refused: shieldError(reply, 400, `pageType must be one of ${PAGE_TYPES.join(", ")}.`, "custom_page.validation") };
      if (zone.planType === 0) return { refused: shieldError(reply, 400, "Custom response pages are not available on the Basic plan.", "feature_not_available_on_plan") };
      return { key: pageKey(zone.shieldZoneId, pageType), zone };
    };

    app.get(pageRoute, async (req, reply) => {
      const target = pageTarget(req, reply);
      if (target.refused) return target.refused;
      const page = ctx.store.get<{ html: string }>(CUSTOM_PAGE, target.key);
      if (!page) return shieldError(reply, 404, "No custom page of this type.", "custom_page.not_found");
      return reply.type("text/html; charset=utf-8").send(page.html);
    });

    app.put(pageRoute, async (req, reply) => {
      const target = pageTarget(req, reply);
      if (target.refused) return target.refused;
      const html = typeof req.body === "string" ? req.body : undefined;
      if (html === undefined || html.trim() === "") return shieldError(reply, 400, "The page must be a non-empty text body.", "custom_page.validation");
      if (Buffer.byteLength(html) > MAX_PAGE_BYTES) return shieldError(reply, 400, `The page must be at most ${MAX_PAGE_BYTES} bytes.`, "custom_page.validation");
      ctx.store.put(CUSTOM_PAGE, target.key, { html }, target.zone.shieldZoneId);
      return { statusCode: 200, success: true, message: "The custom page was saved.", errorKey: null };
    });

    app.delete(pageRoute, async (req, reply) => {
      const target = pageTarget(req, reply);
      if (target.refused) return target.refused;
      if (!ctx.store.delete(CUSTOM_PAGE, target.key)) return shieldError(reply, 404, "No custom page of this type.", "custom_page.not_found");
      return { statusCode: 200, success: true, message: "The custom page was deleted.", errorKey: null };
    });
  },
};
