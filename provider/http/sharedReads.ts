import { AsyncLocalStorage } from "node:async_hooks";
import { createHash } from "node:crypto";
import { serialisedWrite } from "./zoneWrites";

/**
 * Reads shared between callers in one process: coalescing of concurrent identical GETs, and the
 * deployment-scoped cache of parent objects (a pull zone's hostnames, a script's variables, a shield zone's
 * rules). Both follow one consistency rule:
 *
 *   A read never answers with data the server produced before one of our own writes to the same API
 *   surface finished.
 *
 * - A write is every request that is not a GET, and every GET marked as changing state (`mutates`).
 * - Its surface is the API's origin plus the first path segment: `/pullzone`, `/compute`, `/shield`.
 *   Not the object's own path, because the APIs do not nest consistently: Shield changes a rule at
 *   `/shield/rate-limit/{id}` but lists it at `/shield/rate-limits/{zoneId}`, and
 *   `GET /pullzone/loadFreeCertificate?hostname=` changes a zone it does not name.
 * - When a write finishes, whether it succeeded or failed (a failure may still have acted), every cached
 *   read of its surface is dropped, for every credential, and every read of that surface still in flight is
 *   marked superseded: later callers do not join it and its answer is not cached (its own callers, whose
 *   reads overlapped the write, still get it).
 * - Concurrent identical GETs (same credential, method and URL) share one request and its answer; a caller
 *   never joins a request sent before a write of its surface finished.
 * - A read of a parent (`cache`) that reads back a write (asked inside a resource's operation after one of its own
 *   writes finished, see `inOperation`, or outside any operation) first waits for the writes of its surface already
 *   in flight when it is asked for (not for writes sent after it). Then one read serves every caller whose write was
 *   among them: twenty hostnames added to one zone at once are read back with a few reads of the zone, not one each.
 *   Only the writes to the object it reads (see `objectOf`: `/pullzone/7` for `/pullzone/7/addHostname`), or naming
 *   none (`POST /shield/rate-limit`, `GET /pullzone/loadFreeCertificate`), are waited for: another zone's hostnames
 *   cannot change it, and waiting for them held a lane for nothing.
 *   It never waits for a write that waits for it (a write waits only for this process's earlier writes to its zone,
 *   which count as in flight meanwhile: zoneWrites.ts). A look-up (asked before the operation's first write) does not
 *   wait: other resources' writes in flight are not what it looks for (the engine runs one operation per identity),
 *   and waiting for them held an engine lane for up to a round trip per look-up, while their answers are kept from
 *   it anyway once they finish (the rule above).
 * - Cached reads are kept only where the caller asks for it (`cacheable`, parents only) and the client has
 *   the cache on (the provider process: `readCache`), and only 200 answers (a 202 says "still in progress").
 *   They last until the next write of their surface, the next deployment (the provider's Configure starts one:
 *   `beginDeployment`), or READ_CACHE_MAX_AGE_MS. Changes made outside this process during a deployment are
 *   therefore seen at the next deployment. A caller that polls for a change must not ask for the cache.
 *
 * Callers are told apart by a hash of the credential and the API origin: the key itself is never part of a
 * map key, a log line or an error.
 */

/** The longest a cached parent is served, even without writes (a deployment that runs for a long time). */
export const READ_CACHE_MAX_AGE_MS = 60_000;
/** Parents cached at most (a deployment has a few; the bound only caps memory). */
const READ_CACHE_MAX_ENTRIES = 1_000;

/** How a request takes part in sharing. */
export type Sharing =
  /** Changes state: invalidates its surface when it finishes; never shared. */
  | "write"
  /** A GET: joins an identical request in flight. */
  | "coalesce"
  /** A GET of a parent: served from the deployment's cache, else joins or sends. */
  | "cache"
  /** A GET that cannot be shared (its body is streamed to one caller). */
  | "none";

export interface SharedRequest {
  sharing: Sharing;
  /** Which credential sends it: a hash (see `credentialId`), never the key. */
  credential: string;
  /** What makes two requests identical: method, full URL (query included) and how the answer is parsed. */
  key: string;
  /** Its API origin and first path segment (see `surfaceOf`). */
  surface: string;
  /** The object its path names, if any (see `objectOf`). */
  object?: string;
}

interface Flight<R> {
  surface: string;
  promise: Promise<R>;
  /** Some caller may keep the answer in the cache (a parent read joined this request). */
  cacheable: boolean;
  /** A write of the surface finished after this request was sent: nobody else may use its answer. */
  superseded: boolean;
}

interface Cached {
  surface: string;
  value: unknown;
  storedAt: number;
}

const flights = new Map<string, Flight<unknown>>();
/** Our writes in flight, by surface, with the object each names (each is removed when it finishes). */
const writesInFlight = new Map<string, Map<Promise<unknown>, string | undefined>>();
const cache = new Map<string, Cached>();

/** A stable id for a credential at one API origin: a truncated SHA-256, so the key never becomes a map key. */
export function credentialId(credential: string, origin: string): string {
  return createHash("sha256").update(origin).update("\0").update(credential).digest("hex").slice(0, 32);
}

/** The origin and first path segment of a URL: what a write to it may change. */
export function surfaceOf(url: string | URL): string {
  const u = typeof url === "string" ? new URL(url) : url;
  const first = u.pathname.split("/").find((s) => s !== "") ?? "";
  return `${u.origin}/${first}`;
}

/** The resource operation a request is sent in: whether one of its writes has finished (its reads are read-backs). */
const operation = new AsyncLocalStorage<{ wrote: boolean }>();

/** Runs one resource operation (a create, update or delete; nested ones are part of the outer one). */
export function inOperation<T>(fn: () => Promise<T>): Promise<T> {
  return operation.getStore() ? fn() : operation.run({ wrote: false }, fn);
}

/**
 * The object a URL names: its origin and path up to the first segment that is a number (`/pullzone/7`,
 * `/compute/script/9`, `/dnszone/5`), or undefined when it names none (a create, a list, a Shield rule written with
 * its zone in the body). Only for waiting: what a write invalidates is its whole surface.
 */
export function objectOf(url: string | URL): string | undefined {
  const u = typeof url === "string" ? new URL(url) : url;
  const segments = u.pathname.split("/").filter((s) => s !== "");
  const id = segments.findIndex((s) => /^\d+$/.test(s));
  return id < 0 ? undefined : `${u.origin}/${segments.slice(0, id + 1).join("/")}`;
}

/** Starts a new deployment scope: every cached read is dropped (requests in flight are not affected). */
export function beginDeployment(): void {
  cache.clear();
}

/** Drops the cached reads of a surface and supersedes its reads in flight: our write to it finished. */
function invalidate(surface: string): void {
  for (const [key, entry] of cache) if (entry.surface === surface) cache.delete(key);
  for (const flight of flights.values()) if (flight.surface === surface) flight.superseded = true;
}

/**
 * Runs `send` under the sharing rules. A write invalidates its surface when it finishes; a read may be answered
 * from the cache or from an identical request in flight. Failures are shared with the callers that joined, never cached.
 */
export async function shared<R extends { status: number }>(request: SharedRequest, send: () => Promise<R>): Promise<R> {
  if (request.sharing === "write") {
    // Inside a resource's zone scope it first waits for this process's earlier writes to its zone (zoneWrites.ts),
    // and counts as in flight meanwhile, so a parent read after it serves every write queued before it.
    const write = serialisedWrite(send);
    const writes = writesInFlight.get(request.surface) ?? new Map<Promise<unknown>, string | undefined>();
    writesInFlight.set(request.surface, writes.set(write, request.object));
    try {
      return await write;
    } finally {
      writes.delete(write);
      if (writes.size === 0 && writesInFlight.get(request.surface) === writes) writesInFlight.delete(request.surface);
      invalidate(request.surface);
      const current = operation.getStore();
      if (current) current.wrote = true;
    }
  }
  if (request.sharing === "none") return send();

  const key = `${request.credential} ${request.key}`;
  if (request.sharing === "cache") {
    const pending = [...(writesInFlight.get(request.surface) ?? [])].filter(([, object]) => object === undefined || request.object === undefined || object === request.object);
    if (pending.length > 0 && (operation.getStore()?.wrote ?? true)) await Promise.allSettled(pending.map(([write]) => write));
    const hit = cache.get(key);
    if (hit && Date.now() - hit.storedAt <= READ_CACHE_MAX_AGE_MS) return hit.value as R;
    cache.delete(key);
  }
  const inFlight = flights.get(key);
  if (inFlight && !inFlight.superseded) {
    inFlight.cacheable ||= request.sharing === "cache";
    return inFlight.promise as Promise<R>;
  }

  const flight: Flight<R> = { surface: request.surface, promise: send(), cacheable: request.sharing === "cache", superseded: false };
  flights.set(key, flight);
  try {
    const value = await flight.promise;
    if (flight.cacheable && !flight.superseded && value.status === 200) {
      if (cache.size >= READ_CACHE_MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
      cache.set(key, { surface: request.surface, value, storedAt: Date.now() });
    }
    return value;
  } finally {
    if (flights.get(key) === flight) flights.delete(key);
  }
}
