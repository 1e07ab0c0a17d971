import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import type { EmulatorContext } from "../../context";
import { coreError } from "../../errorShapes";
import { type CodeRecord, type FieldError, type ReleaseRecord, extraProperty, invalid, loadScript, objectBody, saveScript } from "./records";
import { secretsOf } from "./secrets";

/**
 * An edge script's code and releases (edge-scripting-api-v1.0.0.json: GetEdgeScriptCodeEndpoint_GetCode and
 * UploadEdgeScriptCodeEndpoint_SetCode with EdgeScriptCodeModel / UpdateEdgeScriptCodeModel;
 * PublishEdgeScriptReleaseEndpoint_Publish and _Publish2 with PublishEdgeScriptModel; GetEdgeScriptReleaseEndpoint
 * (PaginationListModelOfEdgeScriptReleaseModel) and GetEdgeScriptActiveReleaseEndpoint; EdgeScriptReleaseModel,
 * EdgeScriptReleaseStatus). Uploading code changes what the next publish releases, not what runs: publishing makes
 * a release of the current code with a new Id and Uuid, Live, and archives the one before; the script's
 * CurrentReleaseId names the live release (0 before the first publish).
 */

const RELEASE_STATUS = { archived: 0, live: 1 } as const;

function codeOf(ctx: EmulatorContext, scriptId: number): CodeRecord {
  return ctx.store.get<CodeRecord>("edgescriptcode", scriptId) ?? { Code: null, LastModified: new Date(0).toISOString() };
}

function releasesOf(ctx: EmulatorContext, scriptId: number): ReleaseRecord[] {
  return ctx.store.list<ReleaseRecord>("edgescriptrelease", scriptId);
}

/** Removes what a deleted script leaves behind: its code, releases and secrets. */
export function deleteScriptData(ctx: EmulatorContext, scriptId: number): void {
  ctx.store.delete("edgescriptcode", scriptId);
  for (const release of releasesOf(ctx, scriptId)) ctx.store.delete("edgescriptrelease", release.Id);
  for (const secret of secretsOf(ctx, scriptId)) ctx.store.delete("edgescriptsecret", secret.Id);
}

/** PublishEdgeScriptModel `{Note?}`; the body may be left out. */
function publishNote(strict: boolean, body: unknown): { note: string | null } | FieldError {
  if (body === undefined || body === null) return { note: null };
  const object = objectBody(body);
  if ("message" in object) return object as FieldError;
  const extra = extraProperty(strict, object, ["Note"]);
  if (extra) return extra;
  if (object.Note !== undefined && object.Note !== null && typeof object.Note !== "string") return { field: "Note", message: "The Note must be a string" };
  return { note: (object.Note as string | undefined) ?? null };
}

/** Makes `release` the live one (archiving the others) and names it as the script's current release. */
function goLive(ctx: EmulatorContext, scriptId: number, release: ReleaseRecord): void {
  const script = loadScript(ctx, scriptId);
  if (!script) return;
  for (const other of releasesOf(ctx, scriptId)) {
    if (other.Id !== release.Id && other.Status === RELEASE_STATUS.live) ctx.store.put("edgescriptrelease", other.Id, { ...other, Status: RELEASE_STATUS.archived }, scriptId);
  }
  release.Status = RELEASE_STATUS.live;
  release.DatePublished = new Date().toISOString();
  ctx.store.put("edgescriptrelease", release.Id, release, scriptId);
  script.CurrentReleaseId = release.Id;
  saveScript(ctx, script);
}

export function releaseRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  type ScriptParams = { id: string };

  app.get("/compute/script/:id/code", async (req, reply) => {
    const script = loadScript(ctx, (req.params as ScriptParams).id);
    return script ? codeOf(ctx, script.Id) : coreError(reply, 404);
  });

  app.post("/compute/script/:id/code", async (req, reply) => {
    const script = loadScript(ctx, (req.params as ScriptParams).id);
    if (!script) return coreError(reply, 404);
    const body = objectBody(req.body);
    if ("message" in body) return invalid(reply, body as FieldError);
    const problem = extraProperty(ctx.strict, body, ["Code"]);
    if (problem) return invalid(reply, problem);
    if (body.Code !== undefined && body.Code !== null && typeof body.Code !== "string") return invalid(reply, { field: "Code", message: "The Code must be a string" });
    ctx.store.put("edgescriptcode", script.Id, { Code: (body.Code as string | undefined) ?? null, LastModified: new Date().toISOString() });
    saveScript(ctx, script);
    return reply.code(204).send();
  });

  app.post("/compute/script/:id/publish", async (req, reply) => {
    const script = loadScript(ctx, (req.params as ScriptParams).id);
    if (!script) return coreError(reply, 404);
    const note = publishNote(ctx.strict, req.body);
    if ("message" in note) return invalid(reply, note);
    const code = codeOf(ctx, script.Id).Code;
    if (code === null || code === "") return coreError(reply, 400, "edgescript.no_code", undefined, "The script has no active code");
    const now = new Date().toISOString();
    const release: ReleaseRecord = {
      Id: ctx.store.nextId("edgescriptrelease", 6001),
      Deleted: false,
      Code: code,
      Uuid: randomUUID(),
      Note: note.note,
      Author: null,
      AuthorEmail: null,
      CommitSha: null,
      Status: RELEASE_STATUS.archived,
      DateReleased: now,
      DatePublished: now,
    };
    goLive(ctx, script.Id, release);
    return reply.code(204).send();
  });

  // Publishes an earlier release again (a roll-back).
  app.post("/compute/script/:id/publish/:uuid", async (req, reply) => {
    const { id, uuid } = req.params as { id: string; uuid: string };
    const script = loadScript(ctx, id);
    const release = script ? releasesOf(ctx, script.Id).find((r) => r.Uuid === uuid) : undefined;
    if (!script || !release) return coreError(reply, 404);
    const note = publishNote(ctx.strict, req.body);
    if ("message" in note) return invalid(reply, note);
    goLive(ctx, script.Id, release);
    return reply.code(204).send();
  });

  // Newest first.
  app.get("/compute/script/:id/releases", async (req, reply) => {
    const script = loadScript(ctx, (req.params as ScriptParams).id);
    if (!script) return coreError(reply, 404);
    const query = req.query as { page?: string; perPage?: string };
    const page = query.page === undefined ? 1 : Number(query.page);
    const perPage = query.perPage === undefined ? 1000 : Number(query.perPage);
    if (!Number.isInteger(page) || page < 1) return invalid(reply, { field: "page", message: "page must be at least 1" });
    if (!Number.isInteger(perPage) || perPage < 5 || perPage > 1000) return invalid(reply, { field: "perPage", message: "perPage must be between 5 and 1000" });
    const all = releasesOf(ctx, script.Id).reverse();
    return { Items: all.slice((page - 1) * perPage, page * perPage), CurrentPage: page, TotalItems: all.length, HasMoreItems: page * perPage < all.length };
  });

  app.get("/compute/script/:id/releases/active", async (req, reply) => {
    const script = loadScript(ctx, (req.params as ScriptParams).id);
    const live = script ? releasesOf(ctx, script.Id).find((r) => r.Status === RELEASE_STATUS.live) : undefined;
    return live ?? coreError(reply, 404);
  });
}
