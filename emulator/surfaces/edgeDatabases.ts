import { randomBytes } from "node:crypto";
import type { FastifyReply } from "fastify";
import type { EmulatorContext, EmulatorSurface } from "../context";
import { withJwt } from "./accountJwt";

/**
 * Edge databases (`/edgedb/v2/databases`), with the account's JWT (accountJwt.ts). Source:
 * BunnyWay/terraform-provider-bunnynet internal/api/database.go: the fields (lines 18-29); `GET /{id}` → 200 `{db}`,
 * 404 when gone (lines 31-63); `POST` with `name`, `primary_regions`, `replicas_regions`, `storage_region` → 200
 * `{db_id}` (lines 65-109); `PATCH /{id}` with both region lists → 200 (lines 111-136); `DELETE /{id}` → 200, 404
 * (lines 138-153); errors `{"error": message}` (internal/utils/utils.go lines 53-70). Its resource
 * (internal/provider/resource_database.go) replaces on a new name and sends regions in place; its example names regions
 * DE, NY, SG, LA, UK, SYD; its import example an id `db_` + 26 characters. The URL's form is the documents'
 * (docs.bunny.net/database/connect/authorization: `libsql://<id>.lite.bunnydb.net`), and so are the two kinds of token.
 *
 * Where those are silent, the emulator decides:
 * - Names: 1..64 letters, digits, `-` and `_`, unique in the account (a second one is 409 `{error}`).
 * - Regions: those below; at least one primary; none twice; a region is primary or replica, not both (400 `{error}`).
 * - `GET /edgedb/v2/databases` lists the account's databases as `{databases: [...]}`.
 * - `POST /{id}/auth/generate` with `{authorization: "full-access" | "read-only"}` answers a new `{token}`; tokens
 *   already given stay valid (the dashboard's "Generate Tokens").
 */

const KIND = "edgedb";
const NAME = /^[A-Za-z0-9_-]{1,64}$/;
/** The regions taken (decided: see above); tests/emulator/independence.test.ts compares them with the provider's. */
export const DATABASE_REGIONS = ["DE", "UK", "FR", "NL", "SE", "PL", "ES", "IT", "NY", "LA", "CHI", "DAL", "MIA", "SEA", "TOR", "SG", "JP", "HK", "IN", "SYD", "BR", "ZA"];
const REGIONS = new Set(DATABASE_REGIONS);
const ULID_CHARS = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

interface DatabaseRecord {
  id: string;
  name: string;
  url: string;
  block_reads: boolean;
  block_writes: boolean;
  size_max: string;
  current_size: string;
  storage_region: string;
  primary_regions: string[];
  replicas_regions: string[];
  /** The access tokens given (never answered again). */
  tokens: { token: string; authorization: string }[];
}

function newId(): string {
  return "db_" + [...randomBytes(26)].map((b) => ULID_CHARS[b % 32]).join("");
}

function fail(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply.code(status).send({ error: message });
}

/** The database as the API answers it (without its tokens). */
function answer(db: DatabaseRecord): Omit<DatabaseRecord, "tokens"> {
  const { tokens: _tokens, ...rest } = db;
  return rest;
}

/** Why the regions are refused, or undefined. */
function regionProblem(primary: unknown, replicas: unknown): string | undefined {
  if (!Array.isArray(primary) || primary.length === 0) return "primary_regions must name at least one region";
  if (replicas !== undefined && replicas !== null && !Array.isArray(replicas)) return "replicas_regions must be a list of regions";
  const all = [...primary, ...((replicas as unknown[] | null | undefined) ?? [])];
  for (const r of all) if (typeof r !== "string" || !REGIONS.has(r)) return `${JSON.stringify(r)} is not a database region (one of ${DATABASE_REGIONS.join(", ")})`;
  const twice = all.find((r, i) => all.indexOf(r) !== i);
  if (twice !== undefined) return `region ${twice} is named twice (a region is primary or replica, once)`;
  return undefined;
}

function byId(ctx: EmulatorContext, id: string): DatabaseRecord | undefined {
  return ctx.store.get<DatabaseRecord>(KIND, id);
}

export const edgeDatabasesSurface: EmulatorSurface = {
  name: "edgeDatabases",
  seed: () => ({}),
  routes(app, ctx) {
    app.get("/edgedb/v2/databases", withJwt(ctx, async () => ({ databases: ctx.store.list<DatabaseRecord>(KIND).map(answer) })));

    app.get("/edgedb/v2/databases/:id", withJwt(ctx, async (req, reply) => {
      const db = byId(ctx, (req.params as { id: string }).id);
      return db ? { db: answer(db) } : fail(reply, 404, "Database not found");
    }));

    app.post("/edgedb/v2/databases", withJwt(ctx, async (req, reply) => {
      const body = (req.body ?? {}) as Record<string, unknown>;
      if (typeof body.name !== "string" || !NAME.test(body.name)) return fail(reply, 400, "name must be 1..64 letters, digits, '-' or '_'");
      const problem = regionProblem(body.primary_regions, body.replicas_regions);
      if (problem) return fail(reply, 400, problem);
      if (typeof body.storage_region !== "string" || body.storage_region === "") return fail(reply, 400, "storage_region is required");
      const name = body.name;
      if (ctx.store.list<DatabaseRecord>(KIND).some((d) => d.name === name)) return fail(reply, 409, `a database named ${name} already exists`);
      const id = newId();
      const db: DatabaseRecord = {
        id,
        name,
        url: `libsql://${id.toLowerCase().replace(/_/g, "-")}.lite.bunnydb.net`,
        block_reads: false,
        block_writes: false,
        size_max: "1GB",
        current_size: "0B",
        storage_region: body.storage_region,
        primary_regions: body.primary_regions as string[],
        replicas_regions: (body.replicas_regions as string[] | null | undefined) ?? [],
        tokens: [],
      };
      ctx.store.put(KIND, id, db);
      return { db_id: id };
    }));

    app.patch("/edgedb/v2/databases/:id", withJwt(ctx, async (req, reply) => {
      const db = byId(ctx, (req.params as { id: string }).id);
      if (!db) return fail(reply, 404, "Database not found");
      const body = (req.body ?? {}) as Record<string, unknown>;
      if ("name" in body && body.name !== db.name) return fail(reply, 400, "name cannot be changed");
      const problem = regionProblem(body.primary_regions, body.replicas_regions);
      if (problem) return fail(reply, 400, problem);
      ctx.store.put(KIND, db.id, { ...db, primary_regions: body.primary_regions, replicas_regions: body.replicas_regions ?? [] });
      return reply.code(200).send({});
    }));

    app.delete("/edgedb/v2/databases/:id", withJwt(ctx, async (req, reply) => {
      if (!ctx.store.delete(KIND, (req.params as { id: string }).id)) return fail(reply, 404, "Database not found");
      return reply.code(200).send({});
    }));

    app.post("/edgedb/v2/databases/:id/auth/generate", withJwt(ctx, async (req, reply) => {
      const db = byId(ctx, (req.params as { id: string }).id);
      if (!db) return fail(reply, 404, "Database not found");
      const authorization = (req.body as { authorization?: unknown } | undefined)?.authorization;
      if (authorization !== "full-access" && authorization !== "read-only") return fail(reply, 400, "authorization must be full-access or read-only");
      const token = `${Buffer.from(JSON.stringify({ alg: "EdDSA", typ: "JWT" })).toString("base64url")}.${Buffer.from(JSON.stringify({ id: db.id, a: authorization === "read-only" ? "ro" : "rw", iat: Math.floor(Date.now() / 1000) })).toString("base64url")}.${randomBytes(48).toString("base64url")}`;
      ctx.store.put(KIND, db.id, { ...db, tokens: [...db.tokens, { token, authorization }] });
      return { token };
    }));
  },
};
