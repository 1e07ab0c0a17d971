import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Store } from "./store";
import type { RequestLog } from "./requestLog";
import type { FaultInjector } from "./faults";
import type { Fixtures } from "./publicTypes";

export type { Fixtures };

/** What every surface gets: the store, the fixtures, and the shared auth rules. */
export interface EmulatorContext {
  /** The store of the account the request's credentials belong to (accounts.ts); the first account's outside a request. */
  readonly store: Store;
  requestLog: RequestLog;
  faults: FaultInjector;
  /** The seeded fixtures (ids and keys), merged from every surface. */
  fixtures(): Fixtures;
  /** True when `key` is one of the account's API keys (the `AccessKey` of core, Shield, Containers, logging). */
  isAccountKey(key: string | undefined): boolean;
  /** The HS256 secret the emulator signs logging JWTs with (one per account). */
  jwtSecret(): string;
  /** Whether a body's property its model lacks is refused rather than ignored (EmulatorOptions.strict, unknownProperties.ts). */
  readonly strict: boolean;
  /** The Storage API's HTTPS host (`localhost:<port>`) once it listens (storageHttps.ts), which zones answer as theirs. */
  storageHostname(): string | undefined;
}

/**
 * One API surface of the emulator: its tables, its seeded fixtures and its routes.
 * Core, Shield and Containers routes are behind the account-key check done by the server;
 * Stream (library key) and logging (key or bearer JWT) check credentials themselves.
 */
export interface EmulatorSurface {
  name: string;
  /** Creates the surface's own tables, if any (runs on every start; must be idempotent). */
  migrate?(ctx: EmulatorContext): void;
  /** Seeds a fresh store; returns the fixture entries it adds. Runs inside one transaction. */
  seed(ctx: EmulatorContext, seededSoFar: Fixtures): Fixtures;
  routes(app: FastifyInstance, ctx: EmulatorContext): void;
  /**
   * Whether an `AccessKey` that is not an account key belongs to the account of `ctx.store` (a video library's key, a
   * storage zone's password): the request then runs in that account, whose route checks it.
   */
  ownsKey?(ctx: EmulatorContext, key: string): boolean;
  /**
   * Whether a request that carries neither key nor bearer token, but credentials of the surface's own in its headers
   * (a tus upload's `LibraryId` and signature), names an object of the account of `ctx.store`: it then runs in that
   * account, whose route checks it.
   */
  ownsSignedRequest?(ctx: EmulatorContext, headers: Record<string, string | string[] | undefined>): boolean;
  /**
   * Whether an `Authorization: Bearer` token was issued by the account of `ctx.store` (a logging token, signed with
   * that account's secret): a request with no `AccessKey` then runs in that account, whose route checks it.
   */
  ownsBearer?(ctx: EmulatorContext, bearer: string): boolean;
}

export function accessKeyOf(req: FastifyRequest): string | undefined {
  const v = req.headers["accesskey"];
  return Array.isArray(v) ? v[0] : v;
}

export function bearerOf(req: FastifyRequest): string | undefined {
  const v = req.headers["authorization"];
  const s = Array.isArray(v) ? v[0] : v;
  const m = s ? /^Bearer\s+(.+)$/i.exec(s) : null;
  return m ? m[1] : undefined;
}

export type Reply = FastifyReply;

/**
 * An admin request (`/_emulator/...`) that sends a key that is no account's: refused (403) rather than run in the first
 * account, where it would act on objects the sender did not name. Answers the reply when it refused, else undefined.
 */
export function refusedForeignAdminKey(ctx: EmulatorContext, req: FastifyRequest, reply: FastifyReply): FastifyReply | undefined {
  const key = accessKeyOf(req);
  if (key === undefined || ctx.isAccountKey(key)) return undefined;
  return reply.code(403).send({ error: { code: "forbidden", message: "AccessKey is not an account key of the emulator." } });
}
