import { createHmac, randomBytes } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { type EmulatorContext, type EmulatorSurface, refusedForeignAdminKey } from "../context";
import { coreError } from "../errorShapes";
import { signedWith } from "./logging/jwt";

/**
 * The account's JWT: `POST /apikey/exchange` turns the account key into a token that the edge-database
 * (`/edgedb/...`) and team-member (`/team/member...`) APIs take as their only credential. Source:
 * BunnyWay/terraform-provider-bunnynet internal/api/client.go lines 63-127 (doJWTRequest, getJWTToken): the exchange
 * is sent with the key as `AccessKey` and as `{AccessKey}` in the body and answers `{Token}`; later requests send the
 * token as the whole `Authorization` header, without a scheme.
 *
 * Where that is silent, the emulator decides:
 * - The body's key must be an account key of the account the header's key is (else 401, as for a wrong header key).
 * - The token is an HS256 JWT signed with the account's secret (as its logging tokens are: a request bearing one runs
 *   in that account), valid for an hour, with the claim `scope: "account"`. `Bearer <token>` is taken too.
 * - A missing, malformed, expired or revoked token is 401 `{"error": …}` (the databases' error shape,
 *   internal/utils/utils.go lines 53-70). `POST /_emulator/account-jwts/revoke` revokes every token issued so far, so a
 *   client can be seen to exchange its key again.
 */

const TTL_SECONDS = 3600;
/** The generation of the account's tokens: a revocation moves it on, and tokens of an earlier one are refused. */
const GENERATION_META = "accountJwtGeneration";
const generationOf = (ctx: EmulatorContext) => ctx.store.getMeta<number>(GENERATION_META) ?? 0;

/** The paths that take the account's JWT and check it themselves (no `AccessKey` check in the server's hook). */
export function takesAccountJwt(path: string): boolean {
  return path === "/edgedb" || path.startsWith("/edgedb/") || path === "/team/member" || path.startsWith("/team/member/");
}

/** The token of `Authorization`: the whole header, or what follows `Bearer `. */
export function authorizationTokenOf(req: FastifyRequest): string | undefined {
  const v = req.headers["authorization"];
  const s = (Array.isArray(v) ? v[0] : v)?.trim();
  if (!s) return undefined;
  return /^Bearer\s+/i.test(s) ? s.replace(/^Bearer\s+/i, "") : s;
}

function issue(ctx: EmulatorContext): string {
  const now = Math.floor(Date.now() / 1000);
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
  const unsigned = `${part({ alg: "HS256", typ: "JWT" })}.${part({ scope: "account", gen: generationOf(ctx), iat: now, exp: now + TTL_SECONDS, jti: randomBytes(8).toString("hex") })}`;
  return `${unsigned}.${createHmac("sha256", ctx.jwtSecret()).update(unsigned).digest("base64url")}`;
}

/** Why the request's account JWT is refused, or undefined when it is valid in the request's account. */
function refusal(ctx: EmulatorContext, token: string | undefined): string | undefined {
  if (token === undefined) return "An Authorization header with the token of POST /apikey/exchange is required.";
  if (!signedWith(ctx.jwtSecret(), token)) return "The token is not valid.";
  let claims: { scope?: unknown; gen?: unknown; exp?: unknown };
  try {
    claims = JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString("utf8")) as typeof claims;
  } catch {
    return "The token is not valid.";
  }
  if (claims.scope !== "account") return "The token is not an account token.";
  const now = Math.floor(Date.now() / 1000);
  if (typeof claims.exp !== "number" || claims.exp <= now) return "The token has expired.";
  if (claims.gen !== generationOf(ctx)) return "The token has been revoked.";
  return undefined;
}

/** A route's handler behind the account-JWT check: a request without a valid token is refused (401, `{error}`). */
export function withJwt(ctx: EmulatorContext, handler: (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>) {
  return async (req: FastifyRequest, reply: FastifyReply): Promise<unknown> => (refusedWithoutAccountJwt(ctx, req, reply) ? reply : handler(req, reply));
}

/** Refuses the request (401, `{error}`) unless it bears a valid account JWT; true when it was refused. */
function refusedWithoutAccountJwt(ctx: EmulatorContext, req: FastifyRequest, reply: FastifyReply): boolean {
  const why = refusal(ctx, authorizationTokenOf(req));
  if (why === undefined) return false;
  void reply.code(401).send({ error: why });
  return true;
}

export const accountJwtSurface: EmulatorSurface = {
  name: "accountJwt",
  seed: () => ({}),
  ownsBearer: (ctx, token) => signedWith(ctx.jwtSecret(), token),
  routes(app, ctx) {
    // Behind the server's AccessKey check: the header's key is an account key of this account.
    app.post("/apikey/exchange", async (req, reply) => {
      const body = req.body as { AccessKey?: unknown } | undefined;
      if (typeof body?.AccessKey !== "string" || body.AccessKey === "") return coreError(reply, 400, "validation_error", "AccessKey", "AccessKey is required.");
      if (!ctx.isAccountKey(body.AccessKey)) return coreError(reply, 401);
      return { Token: issue(ctx) };
    });
    app.post("/_emulator/account-jwts/revoke", async (req, reply) => {
      if (refusedForeignAdminKey(ctx, req, reply)) return reply;
      ctx.store.setMeta(GENERATION_META, generationOf(ctx) + 1);
      return { revoked: true };
    });
  },
};
