import { createHash } from "node:crypto";
import type { FastifyReply } from "fastify";
import { z } from "zod";
import type { EmulatorSurface } from "../context";
import { shieldError } from "../errorShapes";
import { envelopeError, numericId, validationMessage, zoneOf } from "./shield";
import { badAccessListEntry } from "./shieldAccessListEntries";
import { parseBody } from "../unknownProperties";

/**
 * Shield's access lists (`/shield/shield-zone/{shieldZoneId}/access-lists*`).
 *
 * Sources: shield-api-v1.0.0.json ("Get Access Lists", "Create / Get / Update / Delete Custom Access List", "Update
 * Access List Configuration": CreateCustomAccessListRequest with `required: [content, name, type]`,
 * UpdateCustomAccessListRequest (null keeps a field), UpdateAccessListConfigurationRequest, CustomAccessList,
 * CustomAccessListResponse, AccessListDetails, AccessListsDetailsResponse, AccessListType, AccessListAction,
 * AccessListCategory), and the Terraform provider, whose lists take their action from the configuration the zone's
 * listing names (internal/api/pullzone_access_list.go).
 *
 * Behaviour reproduced:
 * - every zone lists the managed lists (the categories of AccessListCategory; off, action Block until configured)
 *   and its custom lists, each with its configuration (`configurationId`, `isEnabled`, `action`); a new custom list
 *   is enabled, action Block;
 * - bodies checked against this reading (unknown properties, types, enums, the required fields): 400
 *   CustomAccessListResponse `{data: null, error: {errorKey: "access_list.validation", message}}` naming the field; a
 *   checksum that is not the content's SHA-256 is refused the same way;
 * - creating in an unknown zone answers 202 `not_found_or_unauthorised_access.shieldzone`; beyond the plan's lists
 *   or entries, 202 `plan_limit_restriction.access_list`;
 * - unknown lists or configurations, and everything of a zone gone with its pull zone, are 404 (`access_list.not_found`).
 * Decided (the document is silent): entries are one a line, blank lines dropped, each of the list's type's form
 * (shieldAccessListEntries.ts: an address, a CIDR range, an AS number, an ISO country code; refused as a validation
 * error naming the first entry at fault); the plan limits are Basic 1 list, Advanced 5, Business 10, Enterprise 20, with 1 000 / 10 000 / 25 000 /
 * 50 000 entries in all; names need not be unique.
 */

interface CustomListRecord {
  id: number;
  shieldZoneId: number;
  name: string;
  description: string | null;
  type: number;
  content: string;
  lastModified: string;
  configurationId: number;
  isEnabled: boolean;
  action: number;
}

interface ManagedConfigRecord {
  configurationId: number;
  isEnabled: boolean;
  action: number;
}

export const ACCESS_LIST = "shieldAccessList";
const MANAGED_CONFIG = "shieldManagedAccessListConfig";
const LIST_LIMITS = [1, 5, 10, 20];
const ENTRY_LIMITS = [1000, 10000, 25000, 50000];
const BLOCK = 2;

/** The managed lists every zone offers: id, name, category, the plan that may use it. */
const MANAGED = [
  { listId: 1, name: "VPN providers", category: 1, requiredPlan: 0 },
  { listId: 2, name: "Datacenters", category: 2, requiredPlan: 0 },
  { listId: 3, name: "Open proxies", category: 4, requiredPlan: 0 },
  { listId: 4, name: "Tor exit nodes", category: 8, requiredPlan: 0 },
  { listId: 5, name: "Botnets", category: 16, requiredPlan: 1 },
  { listId: 6, name: "AI crawlers", category: 1024, requiredPlan: 0 },
];
/** A managed list's configuration id in a zone (stable, distinct from custom lists' ids). */
const managedConfigurationId = (shieldZoneId: number, listId: number) => shieldZoneId * 100 + listId;

/** AccessListType and AccessListAction, number to name (a test compares them with the provider's own reading). */
export const ACCESS_LIST_ENUMS = {
  type: { 0: "IP", 1: "CIDR", 2: "ASN", 3: "Country", 4: "Organization", 5: "JA4" },
  action: { 0: "None", 1: "Allow", 2: "Block", 3: "Challenge", 4: "Log", 5: "Bypass" },
} as const satisfies Record<string, Record<number, string>>;
const oneOf = (named: Record<number, string>) =>
  z
    .number()
    .int()
    .refine((n) => Object.hasOwn(named, n), { message: `must be one of ${Object.entries(named).map(([n, name]) => `${n} (${name})`).join(", ")}` });
const accessListType = oneOf(ACCESS_LIST_ENUMS.type);
const accessListAction = oneOf(ACCESS_LIST_ENUMS.action);
const createBody = z.strictObject({
  name: z.string().trim().min(1, "must not be empty"),
  description: z.string().nullish(),
  type: accessListType,
  content: z.string(),
  checksum: z.string().nullish(),
});
const updateBody = z.strictObject({ name: z.string().trim().min(1, "must not be empty").nullish(), content: z.string().nullish(), checksum: z.string().nullish() });
const configurationBody = z.strictObject({ isEnabled: z.boolean().nullish(), action: accessListAction.optional() });

const entriesOf = (content: string) => content.split(/\r?\n/).map((e) => e.trim()).filter((e) => e !== "");
const sha256 = (content: string) => createHash("sha256").update(content).digest("hex");

function refused(reply: FastifyReply, message: string): FastifyReply {
  return reply.code(400).send({ error: { statusCode: 400, success: false, errorKey: "access_list.validation", message } });
}

function invalid(reply: FastifyReply, error: z.ZodError): FastifyReply {
  const message = validationMessage(error);
  return refused(reply, `The request is invalid. ${message}`);
}

const customAnswer = (l: CustomListRecord) => ({
  id: l.id,
  name: l.name,
  description: l.description,
  type: l.type,
  content: l.content,
  checksum: sha256(l.content),
  entryCount: entriesOf(l.content).length,
  lastModified: l.lastModified,
});

export const shieldAccessListsSurface: EmulatorSurface = {
  name: "shieldAccessLists",
  seed: () => ({}),
  routes(app, ctx) {
    const zoneFrom = (params: unknown) => {
      const id = numericId((params as { shieldZoneId: string }).shieldZoneId);
      return id === undefined ? undefined : zoneOf(ctx, id);
    };
    const listIn = (shieldZoneId: number, id: string) => {
      const n = numericId(id);
      const list = n === undefined ? undefined : ctx.store.get<CustomListRecord>(ACCESS_LIST, n);
      return list?.shieldZoneId === shieldZoneId ? list : undefined;
    };
    const notFound = (reply: FastifyReply) => shieldError(reply, 404, "The access list was not found.", "access_list.not_found");
    const customLists = (shieldZoneId: number) => ctx.store.list<CustomListRecord>(ACCESS_LIST, shieldZoneId);
    const entriesInZone = (shieldZoneId: number, except?: number) => customLists(shieldZoneId).filter((l) => l.id !== except).reduce((n, l) => n + entriesOf(l.content).length, 0);
    const checksumRefusal = (content: string, checksum: string | null | undefined) =>
      checksum !== undefined && checksum !== null && checksum.toLowerCase() !== sha256(content) ? "checksum: is not the SHA-256 of content" : undefined;

    app.get("/shield/shield-zone/:shieldZoneId/access-lists", async (req, reply) => {
      const zone = zoneFrom(req.params);
      if (!zone) return shieldError(reply, 404, "The shield zone was not found.", "shield_zone.not_found");
      const lastUpdated = new Date(0).toISOString();
      const managedLists = MANAGED.map((m) => {
        const configurationId = managedConfigurationId(zone.shieldZoneId, m.listId);
        const config = ctx.store.get<ManagedConfigRecord>(MANAGED_CONFIG, configurationId) ?? { configurationId, isEnabled: false, action: BLOCK };
        return { ...m, configurationId, description: null, isEnabled: config.isEnabled, type: 1, action: config.action, entryCount: 1000, updateFrequency: "1.00:00:00", lastUpdated };
      });
      const custom = customLists(zone.shieldZoneId).map((l) => ({
        listId: l.id,
        configurationId: l.configurationId,
        name: l.name,
        description: l.description,
        isEnabled: l.isEnabled,
        type: l.type,
        category: 0,
        action: l.action,
        requiredPlan: 0,
        entryCount: entriesOf(l.content).length,
        updateFrequency: null,
        lastUpdated: l.lastModified,
      }));
      return {
        managedLists,
        customLists: custom,
        customEntryCount: entriesInZone(zone.shieldZoneId),
        customEntryLimit: ENTRY_LIMITS[zone.planType] ?? ENTRY_LIMITS[0],
        customListCount: custom.length,
        customListLimit: LIST_LIMITS[zone.planType] ?? LIST_LIMITS[0],
      };
    });

    app.post("/shield/shield-zone/:shieldZoneId/access-lists", async (req, reply) => {
      const zone = zoneFrom(req.params);
      if (!zone) return envelopeError(reply, "not_found_or_unauthorised_access.shieldzone", "The shield zone was not found or is not yours.");
      const parsed = parseBody(createBody, req.body, ctx.strict);
      if (!parsed.success) return invalid(reply, parsed.error);
      const body = parsed.data;
      if (entriesOf(body.content).length === 0) return refused(reply, "The request is invalid. content: must hold at least one entry");
      const badEntry = badAccessListEntry(body.type, entriesOf(body.content));
      if (badEntry) return refused(reply, `The request is invalid. ${badEntry}`);
      const badChecksum = checksumRefusal(body.content, body.checksum);
      if (badChecksum) return refused(reply, `The request is invalid. ${badChecksum}`);
      if (customLists(zone.shieldZoneId).length >= (LIST_LIMITS[zone.planType] ?? LIST_LIMITS[0])) {
        return envelopeError(reply, "plan_limit_restriction.access_list", "Your plan does not allow more custom access lists in this shield zone.");
      }
      if (entriesInZone(zone.shieldZoneId) + entriesOf(body.content).length > (ENTRY_LIMITS[zone.planType] ?? ENTRY_LIMITS[0])) {
        return envelopeError(reply, "plan_limit_restriction.access_list", "Your plan does not allow this many access list entries in this shield zone.");
      }
      const id = ctx.store.nextId(ACCESS_LIST, 501);
      const list: CustomListRecord = {
        id,
        shieldZoneId: zone.shieldZoneId,
        name: body.name,
        description: body.description ?? null,
        type: body.type,
        content: entriesOf(body.content).join("\n"),
        lastModified: new Date().toISOString(),
        configurationId: 70000 + id,
        isEnabled: true,
        action: BLOCK,
      };
      ctx.store.put(ACCESS_LIST, id, list, zone.shieldZoneId);
      return { data: customAnswer(list) };
    });

    app.get("/shield/shield-zone/:shieldZoneId/access-lists/:id", async (req, reply) => {
      const zone = zoneFrom(req.params);
      const list = zone && listIn(zone.shieldZoneId, (req.params as { id: string }).id);
      return list ? { data: customAnswer(list) } : notFound(reply);
    });

    app.patch("/shield/shield-zone/:shieldZoneId/access-lists/configurations/:id", async (req, reply) => {
      const zone = zoneFrom(req.params);
      if (!zone) return notFound(reply);
      const configurationId = numericId((req.params as { id: string }).id);
      const custom = customLists(zone.shieldZoneId).find((l) => l.configurationId === configurationId);
      const managed = MANAGED.find((m) => managedConfigurationId(zone.shieldZoneId, m.listId) === configurationId);
      if (configurationId === undefined || (!custom && !managed)) return notFound(reply);
      const parsed = parseBody(configurationBody, req.body, ctx.strict);
      if (!parsed.success) return invalid(reply, parsed.error);
      const { isEnabled, action } = parsed.data;
      if (custom) {
        const updated = { ...custom, isEnabled: isEnabled ?? custom.isEnabled, action: action ?? custom.action };
        ctx.store.put(ACCESS_LIST, custom.id, updated, zone.shieldZoneId);
        return { data: { isEnabled: updated.isEnabled, action: updated.action } };
      }
      const current = ctx.store.get<ManagedConfigRecord>(MANAGED_CONFIG, configurationId) ?? { configurationId, isEnabled: false, action: BLOCK };
      const updated = { configurationId, isEnabled: isEnabled ?? current.isEnabled, action: action ?? current.action };
      ctx.store.put(MANAGED_CONFIG, configurationId, updated, zone.shieldZoneId);
      return { data: { isEnabled: updated.isEnabled, action: updated.action } };
    });

    app.patch("/shield/shield-zone/:shieldZoneId/access-lists/:id", async (req, reply) => {
      const zone = zoneFrom(req.params);
      const list = zone && listIn(zone.shieldZoneId, (req.params as { id: string }).id);
      if (!zone || !list) return notFound(reply);
      const parsed = parseBody(updateBody, req.body, ctx.strict);
      if (!parsed.success) return invalid(reply, parsed.error);
      const { name, content, checksum } = parsed.data;
      if (content !== undefined && content !== null) {
        if (entriesOf(content).length === 0) return refused(reply, "The request is invalid. content: must hold at least one entry");
        const badEntry = badAccessListEntry(list.type, entriesOf(content));
        if (badEntry) return refused(reply, `The request is invalid. ${badEntry}`);
        const badChecksum = checksumRefusal(content, checksum);
        if (badChecksum) return refused(reply, `The request is invalid. ${badChecksum}`);
        if (entriesInZone(zone.shieldZoneId, list.id) + entriesOf(content).length > (ENTRY_LIMITS[zone.planType] ?? ENTRY_LIMITS[0])) {
          return envelopeError(reply, "plan_limit_restriction.access_list", "Your plan does not allow this many access list entries in this shield zone.");
        }
      }
      const updated: CustomListRecord = {
        ...list,
        name: name ?? list.name,
        content: content === undefined || content === null ? list.content : entriesOf(content).join("\n"),
        lastModified: new Date().toISOString(),
      };
      ctx.store.put(ACCESS_LIST, list.id, updated, zone.shieldZoneId);
      return { data: customAnswer(updated) };
    });

    app.delete("/shield/shield-zone/:shieldZoneId/access-lists/:id", async (req, reply) => {
      const zone = zoneFrom(req.params);
      const list = zone && listIn(zone.shieldZoneId, (req.params as { id: string }).id);
      if (!list) return notFound(reply);
      ctx.store.delete(ACCESS_LIST, list.id);
      return { statusCode: 200, success: true, message: "The access list was deleted.", errorKey: null };
    });
  },
};
