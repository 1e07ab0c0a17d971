import Fastify, { type FastifyInstance } from "fastify";
import { randomBytes } from "node:crypto";
import { Store } from "./store";
import { Accounts } from "./accounts";
import { RequestLog } from "./requestLog";
import { Transform } from "node:stream";
import { FaultConfigSchema, type FaultDecision, FaultInjector } from "./faults";
import { refusalStatus } from "./concurrentWrites";
import { accessKeyOf, bearerOf, type EmulatorContext, type Fixtures } from "./context";
import { coreError, errorFor, familyOf, problem, shieldError } from "./errorShapes";
import { surfaces } from "./surfaces";
import { authorizationTokenOf, takesAccountJwt } from "./surfaces/accountJwt";
import type { EmulatorOptions, Emulator as PublicEmulator, StorageHttpsAddress } from "./publicTypes";
import { type StorageHttps, listenStorageHttps } from "./storageHttps";

/** The emulator with its internals (the Fastify app, the store, the request log), for this repository's tests. */
export interface Emulator extends PublicEmulator {
  app: FastifyInstance;
  /** Every API route registered (method and pattern), admin routes excluded: tests prove they cover them all. */
  routes: { method: string; url: string }[];
  ctx: EmulatorContext;
  /** Every account's store, the first one first (accounts.ts). */
  accounts: Accounts;
}

/** Builds the emulator: every surface's routes at one origin, persisted in SQLite, with admin routes under /_emulator. */
export function createEmulator(options: EmulatorOptions): Emulator {
  const accounts = new Accounts(new Store(options.dataPath));
  const requestLog = new RequestLog();
  const faults = new FaultInjector();
  const app = Fastify({ logger: options.logger ?? false, bodyLimit: 20 * 1024 * 1024, forceCloseConnections: true });
  let storageHttps: StorageHttps | undefined;

  const ctx: EmulatorContext = {
    get store() {
      return accounts.store;
    },
    requestLog,
    faults,
    fixtures: () => ctx.store.getMeta<Fixtures>("fixtures") ?? {},
    // A closed account's keys stop working, as they do on the real platform. Asked on every request: both facts are
    // kept until the account or its keys change.
    isAccountKey: (key) =>
      key !== undefined &&
      !ctx.store.derived("account", "closed", () => ctx.store.get<{ closed: boolean }>("account", "current")?.closed === true) &&
      ctx.store.derived("apikey", "keys", () => new Set(ctx.store.list<{ Key: string }>("apikey").map((k) => k.Key))).has(key),
    jwtSecret: () => ctx.store.getMeta<string>("jwtSecret") ?? "",
    strict: options.strict === true,
    storageHostname: () => storageHttps?.hostname,
  };

  /** Creates an account's tables and, when it has none yet, its seeded objects and keys. */
  const open = (store: Store): Fixtures =>
    accounts.run(store, () => {
      for (const s of surfaces) s.migrate?.(ctx);
      if (!store.getMeta("fixtures")) {
        store.transaction(() => {
          store.setMeta("jwtSecret", randomBytes(32).toString("hex"));
          const fixtures: Fixtures = {};
          for (const s of surfaces) Object.assign(fixtures, s.seed(ctx, fixtures));
          store.setMeta("fixtures", fixtures);
        });
      }
      return ctx.fixtures();
    });
  for (const store of accounts.stores()) open(store);

  const routes: { method: string; url: string }[] = [];
  app.addHook("onRoute", (r) => {
    if (r.url.startsWith("/_emulator")) return;
    for (const method of [r.method].flat()) if (method !== "HEAD") routes.push({ method, url: r.url });
  });
  registerParsers(app);
  registerHooks(app, ctx, accounts);
  registerAdminRoutes(app, ctx, {
    reset() {
      accounts.dropAdded();
      accounts.first.wipe();
      requestLog.clear();
      faults.clear();
      open(accounts.first);
    },
    addAccount: () => open(accounts.add()),
  });
  for (const s of surfaces) s.routes(app, ctx);

  app.setNotFoundHandler((req, reply) => errorFor(reply, 404, `No route for ${req.method} ${req.url.split("?")[0]}`, "not_found"));
  app.setErrorHandler((err: { statusCode?: number; message: string; code?: string }, _req, reply) => {
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 600 ? err.statusCode : 500;
    return errorFor(reply, status, err.message, status === 500 ? "internal_error" : (err.code ?? "invalid_request"));
  });

  return {
    app,
    routes,
    ctx,
    accounts,
    fixtures: ctx.fixtures,
    addAccount: () => ({ accessKey: String(open(accounts.add()).accessKey) }),
    async listen(port = 0, host = "127.0.0.1") {
      await app.listen({ port, host });
      const addr = app.server.address();
      const actualPort = typeof addr === "object" && addr ? addr.port : port;
      return `http://${host}:${actualPort}`;
    },
    async listenStorageHttps(port = 0, host = "127.0.0.1"): Promise<StorageHttpsAddress> {
      storageHttps ??= await listenStorageHttps(app, port, host);
      return { storageHostname: storageHttps.hostname, certificateAuthorityPem: storageHttps.certificateAuthorityPem };
    },
    async close() {
      await storageHttps?.close();
      await app.close();
      accounts.close();
    },
  };
}

function registerParsers(app: FastifyInstance): void {
  const parseJson = (_req: unknown, body: string | Buffer, done: (err: Error | null, body?: unknown) => void): void => {
    try {
      done(null, body === "" ? undefined : JSON.parse(String(body)));
    } catch (e) {
      (e as { statusCode?: number }).statusCode = 400;
      done(e as Error, undefined);
    }
  };
  // Shield accepts text/json and application/*+json besides application/json.
  app.addContentTypeParser("text/json", { parseAs: "string" }, parseJson);
  app.addContentTypeParser(/^application\/[a-z0-9.+-]+\+json$/, { parseAs: "string" }, parseJson);
  // Raw uploads (thumbnails).
  const raw = (_req: unknown, body: string | Buffer, done: (err: Error | null, body?: unknown) => void): void => done(null, body);
  app.addContentTypeParser("application/octet-stream", { parseAs: "buffer" }, raw);
  app.addContentTypeParser(/^image\//, { parseAs: "buffer" }, raw);
}

/**
 * The account whose store a request runs in: the one its key is an account key of, else the one whose surfaces own
 * the key (a library key, a zone password); without a key, the one whose surfaces issued its bearer token (a logging
 * token), or without either, the one whose surfaces own what its signed headers name (a tus upload's library); else the
 * first one, whose checks then refuse it as before.
 */
function accountOf(ctx: EmulatorContext, accounts: Accounts, key: string | undefined, bearer: string | undefined, headers: Record<string, string | string[] | undefined> = {}): Store {
  const all = accounts.stores();
  if (all.length === 1) return accounts.first;
  if (key === undefined) {
    const issuer =
      bearer === undefined
        ? all.find((store) => accounts.run(store, () => surfaces.some((s) => s.ownsSignedRequest?.(ctx, headers) === true)))
        : all.find((store) => accounts.run(store, () => surfaces.some((s) => s.ownsBearer?.(ctx, bearer) === true)));
    return issuer ?? accounts.first;
  }
  const owner = all.find((store) => accounts.run(store, () => ctx.isAccountKey(key)));
  return owner ?? all.find((store) => accounts.run(store, () => surfaces.some((s) => s.ownsKey?.(ctx, key) === true))) ?? accounts.first;
}

/** The account a request runs in, chosen when it arrives. */
interface InAccount {
  account?: Store;
}

// The hooks take fastify's `done` callback rather than being async: they run on every request, and most of them have
// nothing to wait for (an async hook costs a promise and a turn of the microtask queue each time). Each calls `done`
// where an async one would have resolved; a hook that replied still calls it (fastify stops at a sent reply).
function registerHooks(app: FastifyInstance, ctx: EmulatorContext, accounts: Accounts): void {
  app.addHook("onRequest", (req, reply, done) => {
    (req as { startedAt?: number }).startedAt = performance.now();
    const path = pathOf(req.url);
    if (path.startsWith("/_emulator")) {
      // An admin route acts in the account whose key it is sent (its fixtures, its logging tokens), else the first.
      if (accessKeyOf(req) !== undefined) (req as InAccount).account = accountOf(ctx, accounts, accessKeyOf(req), undefined);
      return done();
    }
    // The APIs that take the account's JWT take it without a scheme too (surfaces/accountJwt.ts).
    const account = accountOf(ctx, accounts, accessKeyOf(req), takesAccountJwt(path) ? authorizationTokenOf(req) : bearerOf(req), req.headers);
    (req as InAccount).account = account;

    const decision = ctx.faults.decide(req.method, path);
    (req as { fault?: typeof decision }).fault = decision;
    // Replies when the request goes no further (a fault, a refused key); fastify stops at a sent reply.
    const refuseOrPass = (): void => {
      if (decision.kind === "status" && decision.phase === "before") {
        if (decision.retryAfterSeconds !== undefined) reply.header("retry-after", String(decision.retryAfterSeconds));
        faultReply(reply, decision.status);
        return;
      }
      // Core, Shield and Containers take the account key; Stream, logging and storage check their own credentials.
      const family = familyOf(req.url);
      if (family !== "core" && family !== "shield" && family !== "containers") return;
      if (takesAccountJwt(path)) return;
      if (accounts.run(account, () => ctx.isAccountKey(accessKeyOf(req)))) return;
      if (family === "shield") shieldError(reply, 401, "Unauthorized");
      else if (family === "containers") problem(reply, 401, "Unauthorized", "A valid AccessKey header is required.");
      else coreError(reply, 401);
    };
    // Also run from a timer (after the latency): what it throws goes to fastify's error handler, as an async hook's would.
    const afterLatency = (): void => {
      // A dropped request goes no further: `done` is never called, so the route never runs (onRequestAbort logs it).
      if (decision.kind === "drop" && decision.phase === "before") {
        req.raw.socket.destroy();
        return;
      }
      let error: Error | undefined;
      try {
        refuseOrPass();
      } catch (e) {
        error = e as Error;
      }
      done(error);
    };
    if (decision.latencyMs > 0) setTimeout(afterLatency, decision.latencyMs);
    else afterLatency();
  });

  // "body" drops (faults.ts): the body the route reads ends after `dropAfterBytes` (default a seeded random share of its declared length)
  // and the connection is cut there, as when a client's connection drops mid-upload; the route keeps what arrived.
  app.addHook("preParsing", (req, _reply, payload, done) => {
    const decision = (req as { fault?: FaultDecision }).fault;
    if (decision?.kind !== "drop" || decision.phase !== "body") return done(null, payload);
    const declared = Number(req.headers["content-length"]);
    const cutAt = decision.dropAfterBytes ?? (Number.isFinite(declared) && declared > 1 ? Math.floor(declared * decision.dropShare) : 0);
    let seen = 0;
    let cut = false;
    const cutOff = (stream: Transform) => {
      cut = true;
      payload.unpipe(stream);
      stream.end();
      req.raw.socket.destroy();
    };
    const body = new Transform({
      transform(chunk: Buffer, _encoding, next) {
        if (cut) return next();
        const room = cutAt - seen;
        seen += chunk.length;
        if (chunk.length < room) return next(null, chunk);
        if (room > 0) this.push(chunk.subarray(0, room));
        next();
        cutOff(this);
      },
    });
    payload.on("error", () => body.end());
    if (cutAt === 0) queueMicrotask(() => cutOff(body));
    done(null, payload.pipe(body));
  });

  // The route (and every hook after this one) runs in the request's account: `ctx.store` is its store. Set here, after
  // the body is read, so that the body parser's stream events (which run outside the request's async context) cannot
  // lose it; `done` runs the rest of the request inside.
  app.addHook("preHandler", (req, _reply, done) => {
    const account = (req as InAccount).account;
    if (account === undefined) done();
    else accounts.run(account, done);
  });

  // Lost concurrent writes (concurrentWrites.ts): a write to a zone another write holds is refused, not stored; the
  // one that goes on holds its zone for the window, then until its answer is sent.
  app.addHook("preHandler", (req, reply, done) => {
    const writes = ctx.faults.concurrentWrites;
    const inZone = writes.zoneOf(ctx.store, { method: req.method, route: req.routeOptions.url ?? "", params: req.params, body: req.body });
    if (inZone === undefined) return done();
    // Zones of different accounts may share an id: each account's zones are its own.
    const account = accounts.stores().indexOf(ctx.store);
    const zone = account > 0 ? `${inZone} (account ${account + 1})` : inZone;
    if (!writes.enter(zone)) {
      (req as ZoneHolder).lostWrite = true;
      errorFor(reply, refusalStatus(inZone), `The request was deadlocked with another write to ${inZone.replace(":", " ")} and was not applied. Send it again.`, "internal_error");
      return done();
    }
    (req as ZoneHolder).heldZone = zone;
    if (writes.window > 0) setTimeout(done, writes.window);
    else done();
  });

  // "after" faults: the route has acted, then the answer is lost or replaced by an error.
  app.addHook("onSend", (req, reply, payload, done) => {
    releaseZone(ctx, req);
    const decision = (req as { fault?: ReturnType<EmulatorContext["faults"]["decide"]> }).fault;
    if (!decision || decision.kind === "none" || decision.phase !== "after" || (req as { faultApplied?: boolean }).faultApplied) return done(null, payload);
    (req as { faultApplied?: boolean }).faultApplied = true;
    if (decision.kind === "drop") {
      req.raw.socket.destroy();
      return done(null, payload);
    }
    reply.code(decision.status);
    done(null, JSON.stringify(faultBody(req.url, decision.status)));
  });

  app.addHook("onResponse", (req, reply, done) => {
    releaseZone(ctx, req);
    logRequest(ctx, req, reply.statusCode, req.method === "HEAD" ? reply.getHeader("upload-offset") : undefined);
    done();
  });
  // A dropped connection never reaches onResponse; log it when the request is torn down.
  app.addHook("onRequestAbort", (req, done) => {
    releaseZone(ctx, req);
    logRequest(ctx, req, 0);
    done();
  });
}

/** The request's path, without its query. */
function pathOf(url: string): string {
  const at = url.indexOf("?");
  return at < 0 ? url : url.slice(0, at);
}

/** A request that holds a zone for its write, or was refused because another one held it. */
interface ZoneHolder {
  heldZone?: string;
  lostWrite?: boolean;
}

/** The zone a write held is free once its answer is on its way (or the request is gone). */
function releaseZone(ctx: EmulatorContext, req: import("fastify").FastifyRequest): void {
  const holder = req as ZoneHolder;
  if (holder.heldZone === undefined) return;
  ctx.faults.concurrentWrites.leave(holder.heldZone);
  holder.heldZone = undefined;
}

const QUERY_COLON = /:|%3a/i;

/**
 * The request's path and query as the log keeps it: a query value that is itself a URL (a thumbnail's source, often
 * signed) keeps its origin and path, never its own query, fragment or credentials, so no token reaches the log.
 */
export function loggedUrl(url: string): string {
  const at = url.indexOf("?");
  // A URL value holds a colon, literal or percent-encoded: without one, no value is a URL (the common case, cheaply).
  if (at < 0 || !QUERY_COLON.test(url.slice(at + 1))) return url;
  const params = new URLSearchParams(url.slice(at + 1));
  let changed = false;
  for (const [name, value] of [...params]) {
    if (!/^https?:\/\//i.test(value) || !URL.canParse(value)) continue;
    const inner = new URL(value);
    if (!inner.search && !inner.hash && !inner.username && !inner.password) continue;
    params.set(name, `${inner.origin}${inner.pathname}${inner.search || inner.hash ? "?[redacted]" : ""}`);
    changed = true;
  }
  return changed ? `${url.slice(0, at)}?${params.toString()}` : url;
}

function logRequest(ctx: EmulatorContext, req: import("fastify").FastifyRequest, status: number, answeredOffset?: unknown): void {
  const path = pathOf(req.url);
  if (path.startsWith("/_emulator")) return;
  const r = req as { startedAt?: number; fault?: { kind: string }; logged?: boolean } & ZoneHolder;
  if (r.logged) return;
  r.logged = true;
  const declaredLength = req.headers["content-length"];
  ctx.requestLog.add({
    time: new Date().toISOString(),
    method: req.method,
    url: loggedUrl(req.url),
    route: req.routeOptions?.url ?? path,
    status,
    durationMs: Math.round((performance.now() - (r.startedAt ?? performance.now())) * 10) / 10,
    auth: accessKeyOf(req) ? "accessKey" : bearerOf(req) || (takesAccountJwt(path) && authorizationTokenOf(req)) ? "bearer" : "none",
    fault: r.lostWrite ? "concurrentWrite" : r.fault && r.fault.kind !== "none" ? r.fault.kind : undefined,
    contentLength: declaredLength !== undefined && /^\d+$/.test(declaredLength) ? Number(declaredLength) : undefined,
    chunked: /\bchunked\b/i.test(String(req.headers["transfer-encoding"] ?? "")) ? true : undefined,
    uploadOffset: uploadOffsetOf(req.method === "HEAD" ? answeredOffset : req.headers["upload-offset"]),
  });
}

/** A tus Upload-Offset header's value as a number, when it is one. */
function uploadOffsetOf(value: unknown): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  return (typeof text === "string" || typeof text === "number") && /^\d+$/.test(String(text)) ? Number(text) : undefined;
}

function faultBody(url: string, status: number): unknown {
  switch (familyOf(url)) {
    case "shield":
      return { statusCode: status, success: false, message: "Injected fault", errorKey: status === 429 ? "rate_limited" : "internal_error" };
    case "containers":
      return { type: `https://httpstatuses.io/${status}`, title: "Injected fault", status, detail: null, instance: url.split("?")[0] };
    case "stream":
      return { success: false, message: "Injected fault", statusCode: status };
    case "logging":
      return { error: { code: status === 429 ? "rate_limited" : "internal_error", message: "Injected fault" } };
    case "storage":
      return { HttpCode: status, Message: "Injected fault" };
    default:
      return { ErrorKey: status === 429 ? "rate_limited" : "internal_error", Field: null, Message: "Injected fault" };
  }
}

function faultReply(reply: import("fastify").FastifyReply, status: number) {
  return reply.code(status).send(faultBody(reply.request.url, status));
}

function registerAdminRoutes(app: FastifyInstance, ctx: EmulatorContext, actions: { reset(): void; addAccount(): Fixtures }): void {
  app.get("/_emulator/fixtures", async () => ctx.fixtures());
  app.post("/_emulator/reset", async () => {
    actions.reset();
    return { ok: true };
  });
  // Another account, seeded as the first one is, with keys and objects of its own: its fixtures (`accessKey`...).
  app.post("/_emulator/accounts", async () => actions.addAccount());
  app.get("/_emulator/requests", async (req) => {
    const since = Number((req.query as { since?: string }).since ?? 0);
    return { lastSeq: ctx.requestLog.lastSeq, requests: ctx.requestLog.since(Number.isFinite(since) ? since : 0) };
  });
  app.delete("/_emulator/requests", async () => {
    ctx.requestLog.clear();
    return { ok: true };
  });
  app.get("/_emulator/faults", async () => ({ rules: ctx.faults.describe(), injected: ctx.faults.injected, ...ctx.faults.concurrentWrites.describe() }));
  app.post("/_emulator/faults", async (req, reply) => {
    const parsed = FaultConfigSchema.safeParse(req.body ?? {});
    if (!parsed.success) {
      const i = parsed.error.issues[0];
      return reply.code(400).send({ error: { code: "invalid_request", message: `${i.path.join(".") || "(body)"}: ${i.message}` } });
    }
    ctx.faults.configure(parsed.data);
    return { rules: ctx.faults.describe() };
  });
  app.delete("/_emulator/faults", async () => {
    ctx.faults.clear();
    return { ok: true };
  });
}
