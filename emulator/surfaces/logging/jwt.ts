import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import type { EmulatorContext } from "../../context";

/**
 * Logging tokens: the HS256 JWTs bound to one pull zone (what the dashboard hands out), which the logging API accepts
 * as `Authorization: Bearer` instead of the account key. The emulator signs them with the secret of the account
 * they are issued for (one per account: server.ts), so a token is its account's, as a key is: a request carrying one
 * runs in the account whose secret signed it (`signedWith`, the logging surface's `ownsBearer`).
 */

/** The body of `POST /_emulator/logging-token`. */
export const TokenRequestSchema = z
  .object({
    pullZoneId: z.number().int().positive(),
    /** Negative values mint an already-expired token (for tests). */
    ttlSeconds: z.number().int().min(-86_400).max(86_400).default(3600),
  })
  .strict();

type Jose = typeof import("jose", { with: { "resolution-mode": "import" } });
let josePromise: Promise<Jose> | undefined;
/** jose is ESM-only; this package compiles to CommonJS, so it is loaded with a real dynamic import. */
function jose(): Promise<Jose> {
  josePromise ??= import("jose");
  return josePromise;
}

function secretKey(ctx: EmulatorContext): Uint8Array {
  return new TextEncoder().encode(ctx.jwtSecret());
}

/** Issues a logging token for one pull zone (what the dashboard hands out). */
export async function issueLoggingToken(ctx: EmulatorContext, pullZoneId: number, ttlSeconds: number): Promise<{ token: string; expiresAt: string }> {
  const { SignJWT } = await jose();
  const now = Math.floor(Date.now() / 1000);
  const exp = now + ttlSeconds;
  const token = await new SignJWT({ pullZoneId })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuedAt(Math.min(now, exp))
    .setExpirationTime(exp)
    .sign(secretKey(ctx));
  return { token, expiresAt: new Date(exp * 1000).toISOString() };
}

/**
 * Whether `token` is an HS256 JWT whose signature is `secret`'s (RFC 7515 section 5.2: the HMAC of the first two parts
 * as sent). Only the signature: which account a token belongs to; its claims and expiry are checked in that account by
 * `zoneClaimOf`. Synchronous, as the choice of a request's account is.
 */
export function signedWith(secret: string, token: string): boolean {
  const parts = token.split(".");
  if (parts.length !== 3 || secret === "") return false;
  const expected = createHmac("sha256", secret).update(`${parts[0]}.${parts[1]}`).digest();
  const sent = Buffer.from(parts[2], "base64url");
  return sent.length === expected.length && timingSafeEqual(sent, expected);
}

/**
 * The `pullZoneId` claim of a token signed by the emulator, as the token carries it (uncoerced); throws when the
 * token is not valid or has expired.
 */
export async function zoneClaimOf(ctx: EmulatorContext, bearer: string): Promise<unknown> {
  const { jwtVerify } = await jose();
  const { payload } = await jwtVerify(bearer, secretKey(ctx), { algorithms: ["HS256"] });
  return payload.pullZoneId;
}
