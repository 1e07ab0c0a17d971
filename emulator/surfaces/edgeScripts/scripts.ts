import type { FastifyInstance, FastifyReply } from "fastify";
import type { EmulatorContext } from "../../context";
import { coreError } from "../../errorShapes";
import { type PullZoneRecord, createPullZone, deletePullZone } from "../pullZones";
import { type EdgeScriptRecord, type FieldError, type LinkedPullZoneRecord, SCRIPT_TYPES, createScriptRecord, extraProperty, invalid, loadScript, objectBody, saveScript } from "./records";
import { deleteScriptData } from "./releases";

/**
 * Edge scripts themselves (edge-scripting-api-v1.0.0.json: CreateEdgeScriptEndpoint_AddScript with
 * AddEdgeScriptModel, GetEdgeScriptByIdEndpoint, UpdateEdgeScriptEndpoint with UpdateEdgeScriptModel,
 * ListEdgeScriptsEndpoint (PaginationListModelOfEdgeScriptModel), DeleteEdgeScriptEndpoint with
 * `deleteLinkedPullZones`; EdgeScriptModel, LinkedPullZone, EdgeScriptTypes). A linked pull zone is a record of
 * kind `pullzone` in the shape of surfaces/pullZones.ts, with the Core document's `OriginType` 4 (EdgeScript) and
 * `EdgeScriptId`; a script's `LinkedPullZones` are read from the pull zones that name it, so a zone deleted or
 * re-pointed elsewhere is no longer listed.
 */

const NAME_MAX = 100;
const TYPE_VALUES: readonly number[] = Object.values(SCRIPT_TYPES);
const PULL_ZONE_NAME = /^[a-zA-Z0-9-]{1,60}$/;
/** Where a pull zone of a deleted script points when it is kept (the documents say "the landing page"). */
export const LANDING_PAGE_ORIGIN = "https://bunny.net";

function checkName(value: unknown, required: boolean): FieldError | undefined {
  if (value === undefined || value === null || value === "") return required ? { field: "Name", message: "The Name field is required" } : undefined;
  if (typeof value !== "string" || value.length > NAME_MAX) return { field: "Name", message: `The Name must be a string of 1 to ${NAME_MAX} characters` };
  return undefined;
}

function checkType(value: unknown, required: boolean): FieldError | undefined {
  if (value === undefined || value === null) return required ? { field: "ScriptType", message: "The ScriptType field is required" } : undefined;
  if (typeof value !== "number" || !TYPE_VALUES.includes(value)) return { field: "ScriptType", message: "The ScriptType must be 0 (DNS), 1 (CDN) or 2 (Middleware)" };
  return undefined;
}

/** AddEdgeScriptModel, checked; a source-code integration is not emulated. */
function checkAddBody(strict: boolean, body: Record<string, unknown>): FieldError | undefined {
  const extra = extraProperty(strict, body, ["Name", "Code", "ScriptType", "CreateLinkedPullZone", "LinkedPullZoneName", "Integration"]);
  if (extra) return extra;
  const problem = checkName(body.Name, true) ?? checkType(body.ScriptType, true);
  if (problem) return problem;
  if (body.Code !== undefined && body.Code !== null && typeof body.Code !== "string") return { field: "Code", message: "The Code must be a string" };
  if (body.Integration !== undefined && body.Integration !== null) return { field: "Integration", message: "Source-code integrations are not supported by the emulator" };
  const link = body.CreateLinkedPullZone;
  if (link !== undefined && typeof link !== "boolean") return { field: "CreateLinkedPullZone", message: "The CreateLinkedPullZone field must be true or false" };
  if (link === true && body.ScriptType !== SCRIPT_TYPES.standalone) return { field: "CreateLinkedPullZone", message: "Only a standalone (CDN) script has a linked pull zone" };
  const zoneName = body.LinkedPullZoneName;
  if (zoneName !== undefined && zoneName !== null && (typeof zoneName !== "string" || !PULL_ZONE_NAME.test(zoneName))) {
    return { field: "LinkedPullZoneName", message: "The LinkedPullZoneName must be 1 to 60 letters, digits or hyphens" };
  }
  return undefined;
}

function pullZoneNameTaken(ctx: EmulatorContext, name: string): boolean {
  return ctx.store.list<PullZoneRecord>("pullzone").some((z) => z.Name.toLowerCase() === name.toLowerCase());
}

/** Creates the standalone script's pull zone: origin type EdgeScript, pointing at the script. */
function createLinkedPullZone(ctx: EmulatorContext, script: EdgeScriptRecord, name: string): PullZoneRecord {
  return createPullZone(ctx, name, { OriginUrl: `https://${script.SystemHostname}`, OriginType: 4, EdgeScriptId: script.Id, EdgeScriptExecutionPhase: 0, MiddlewareScriptId: null });
}

/** The pull zones that run the script (as their origin, or as their middleware). */
function linkedZones(ctx: EmulatorContext, scriptId: number): PullZoneRecord[] {
  // Filtered in SQLite: a script is read often (every variable's refresh), and an account may have many zones.
  const rows = ctx.store
    .statement("SELECT data FROM objects WHERE kind = 'pullzone' AND (json_extract(data, '$.EdgeScriptId') = ? OR json_extract(data, '$.MiddlewareScriptId') = ?) ORDER BY rowid")
    .all(scriptId, scriptId) as { data: string }[];
  return rows.map((r) => JSON.parse(r.data) as PullZoneRecord);
}

/** EdgeScriptModel as answered: the linked pull zones as they are now. */
export function scriptModel(ctx: EmulatorContext, script: EdgeScriptRecord, withLinks = true): EdgeScriptRecord {
  const links: LinkedPullZoneRecord[] = withLinks ? linkedZones(ctx, script.Id).map((z) => ({ Id: z.Id, PullZoneName: z.Name, DefaultHostname: `${z.Name}.b-cdn.net` })) : [];
  return { ...script, LinkedPullZones: links };
}

function queryValues(value: unknown): string[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).flatMap((v) => String(v).split(","));
}

function listScripts(ctx: EmulatorContext, query: Record<string, unknown>, reply: FastifyReply): FastifyReply | object {
  const page = query.page === undefined ? 1 : Number(query.page);
  const perPage = query.perPage === undefined ? 1000 : Number(query.perPage);
  if (!Number.isInteger(page) || page < 1) return invalid(reply, { field: "page", message: "page must be at least 1" });
  if (!Number.isInteger(perPage) || perPage < 5 || perPage > 1000) return invalid(reply, { field: "perPage", message: "perPage must be between 5 and 1000" });
  const types = queryValues(query.type).map(Number);
  const search = typeof query.search === "string" ? query.search.toLowerCase() : "";
  const all = ctx.store
    .list<EdgeScriptRecord>("edgescript")
    .filter((s) => !s.Deleted && (types.length === 0 || types.includes(s.ScriptType)) && s.Name.toLowerCase().includes(search));
  const items = all.slice((page - 1) * perPage, page * perPage).map((s) => scriptModel(ctx, s, query.includeLinkedPullzones === "true"));
  return { Items: items, CurrentPage: page, TotalItems: all.length, HasMoreItems: page * perPage < all.length };
}

export function scriptRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  type ScriptParams = { id: string };

  app.get("/compute/script", async (req, reply) => listScripts(ctx, req.query as Record<string, unknown>, reply));

  app.post("/compute/script", async (req, reply) => {
    const body = objectBody(req.body);
    if ("message" in body) return invalid(reply, body as FieldError);
    const problem = checkAddBody(ctx.strict, body);
    if (problem) return invalid(reply, problem);
    const zoneName = typeof body.LinkedPullZoneName === "string" ? body.LinkedPullZoneName : undefined;
    if (body.CreateLinkedPullZone === true && zoneName !== undefined && pullZoneNameTaken(ctx, zoneName)) {
      return coreError(reply, 400, "pullzone.name_taken", "LinkedPullZoneName", "A pull zone with this name already exists");
    }
    const script = createScriptRecord(ctx, body.Name as string, body.ScriptType as number);
    if (typeof body.Code === "string") ctx.store.put("edgescriptcode", script.Id, { Code: body.Code, LastModified: new Date().toISOString() });
    if (body.CreateLinkedPullZone === true) {
      let name = zoneName ?? `${script.SystemHostname.split(".")[0]}`;
      if (zoneName === undefined && pullZoneNameTaken(ctx, name)) name = `${name}-${ctx.store.nextId("linkedpullzonename", 1)}`;
      const zone = createLinkedPullZone(ctx, script, name);
      script.DefaultHostname = zone.Hostnames[0].Value;
      saveScript(ctx, script);
    }
    return reply.code(201).send(scriptModel(ctx, script));
  });

  app.get("/compute/script/:id", async (req, reply) => {
    const script = loadScript(ctx, (req.params as ScriptParams).id);
    return script ? scriptModel(ctx, script) : coreError(reply, 404);
  });

  app.post("/compute/script/:id", async (req, reply) => {
    const script = loadScript(ctx, (req.params as ScriptParams).id);
    if (!script) return coreError(reply, 404);
    const body = objectBody(req.body);
    if ("message" in body) return invalid(reply, body as FieldError);
    const problem = extraProperty(ctx.strict, body, ["Name", "ScriptType"]) ?? checkName(body.Name, false) ?? checkType(body.ScriptType, false);
    if (problem) return invalid(reply, problem);
    if (typeof body.Name === "string" && body.Name !== "") script.Name = body.Name;
    if (typeof body.ScriptType === "number") script.ScriptType = body.ScriptType;
    saveScript(ctx, script);
    return scriptModel(ctx, script);
  });

  app.delete("/compute/script/:id", async (req, reply) => {
    const script = loadScript(ctx, (req.params as ScriptParams).id);
    if (!script) return coreError(reply, 404);
    const deleteZones = (req.query as { deleteLinkedPullZones?: string }).deleteLinkedPullZones === "true";
    for (const zone of linkedZones(ctx, script.Id)) {
      if (deleteZones) {
        // As `DELETE /pullzone/{id}` does: its hostnames, Shield zone and rules go with it.
        deletePullZone(ctx, zone.Id);
        continue;
      }
      if (zone.MiddlewareScriptId === script.Id) zone.MiddlewareScriptId = null;
      if (zone.EdgeScriptId === script.Id) Object.assign(zone, { EdgeScriptId: 0, OriginType: 0, OriginUrl: LANDING_PAGE_ORIGIN });
      ctx.store.put("pullzone", zone.Id, zone);
    }
    deleteScriptData(ctx, script.Id);
    ctx.store.delete("edgescript", script.Id);
    return reply.code(204).send();
  });
}
