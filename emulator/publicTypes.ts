/**
 * The emulator's public types, written out plainly: the package root and the testing kit declare only these (and
 * bunnynet-pulumi's own public types), never fastify's, pino's or zod's, whose declarations do not compile under
 * Pulumi's template tsconfig (no `esModuleInterop`, no `skipLibCheck`). faults.ts checks at compile time that the
 * fault types are exactly what its schema takes.
 */
export type { RequestLogEntry } from "./requestLog";

/** Fixture ids and keys, as served by `GET /_emulator/fixtures` (one flat object). */
export type Fixtures = Record<string, string | number>;

/** One fault-injection rule: the first rule whose method and path match a request decides. */
export interface FaultRule {
  /** Regular expression tested against the path (without query); default: every API route. */
  path?: string;
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Share of matching requests that fail (0..1). Default 0. */
  errorRate?: number;
  /** Status the failing requests get: a 5xx or 429. Default 503. */
  errorStatus?: number;
  /** Share of matching requests whose connection is dropped without an answer. Default 0. */
  dropRate?: number;
  /** Share of matching requests answered 429 with Retry-After (refused: the route never runs). Default 0. */
  rateLimitRate?: number;
  /**
   * "before" (default): refused before the route runs; "after": the route acts, then the answer is lost or replaced;
   * "either": each failure is one or the other at random (seeded), half and half; "body" (with `dropRate`): the
   * connection is cut partway through the request's body (after `dropAfterBytes`), so the route sees the body end
   * early, as when a client's connection drops mid-upload.
   */
  phase?: "before" | "after" | "either" | "body";
  /** With phase "body": how many bytes of the body arrive before the cut. Default: a seeded random share of its Content-Length. */
  dropAfterBytes?: number;
  /** Latency added to every matching request, in ms (at most 60,000). */
  latencyMs?: number;
  /** The next N matching requests answer 429 with Retry-After, then normal service resumes. */
  burst429?: number;
  /** The Retry-After of those 429s, in seconds (at most 60). Default 1. */
  retryAfterSeconds?: number;
  /** The first N matching requests pass untouched (e.g. fail only the second page of a listing). */
  skip?: number;
  /** The rule applies to at most N requests (after `skip`), then lets everything pass. */
  times?: number;
}

/** The body of `POST /_emulator/faults`: the rules, and a seed that makes a run repeatable. */
export interface FaultConfigInput {
  rules?: FaultRule[];
  seed?: number;
  /**
   * Concurrent writes as bunny.net's API loses them: a write to a pull zone (its settings, delete, edge rules) or to a
   * Shield zone's WAF rules that starts while another such write to the same zone is in flight is refused with a 500
   * and not stored; a pull zone create while another is in flight, with a 502. Hostnames, rate-limit rules and the
   * other writes are never refused (nothing shows them lost). Default false. See the emulator's README ("Lost
   * concurrent writes").
   */
  loseConcurrentWrites?: boolean;
  /** How long each write holds its zone while `loseConcurrentWrites` is on, in ms (0..5,000). Default 20. */
  concurrentWriteWindowMs?: number;
  /**
   * How long a Magic Containers app's deployment (a create, or a change of its containers) stays `progressing`
   * before it is `active`, in ms (0..600,000). Default 300.
   */
  appDeployMs?: number;
  /** Deployments started while this is on end `failing` instead of `active`. Default false. */
  failAppDeploys?: boolean;
}

export interface EmulatorOptions {
  /** SQLite file, or ":memory:". */
  dataPath: string;
  /** Fastify's own request logging (off by default). */
  logger?: boolean;
  /**
   * Refuse (400, naming it) a request body's property that its model does not have, unknown or read-only, where
   * bunny.net's API ignores it. Default false: the emulator ignores them as the API does, so clients that send whole
   * objects back (bunny.net's Terraform provider) work. Turn it on to test a client of your own: a misspelt property
   * then fails instead of being dropped.
   */
  strict?: boolean;
}

/** A running emulator, as the package root gives it. */
export interface Emulator {
  /** Starts listening; resolves to the base URL (`http://127.0.0.1:<port>`). Port 0: any free port. */
  listen(port?: number, host?: string): Promise<string>;
  /** The seeded fixtures: ids and keys to put in your stack config. */
  fixtures(): Fixtures;
  /**
   * Adds an account, seeded as the first one is, with its own API keys and objects: nothing crosses between accounts
   * (an object of one is a 404 with another's key). Returns the new account's key. `POST /_emulator/reset` goes
   * back to the first account alone.
   */
  addAccount(): { accessKey: string };
  /**
   * Serves the Storage API over HTTPS at the root of its own host, as bunny.net does, for clients that build the
   * storage URL from a zone's `StorageHostname` (bunny.net's Terraform provider does): from then on every storage zone
   * answers `StorageHostname` as that host. Port 0: any free port. Trust `certificateAuthorityPem` in the client (write
   * it to a file: `SSL_CERT_FILE` for Go, `NODE_EXTRA_CA_CERTS` for Node). Called again, it answers the same server.
   */
  listenStorageHttps(port?: number, host?: string): Promise<StorageHttpsAddress>;
  close(): Promise<void>;
}

/** Where the Storage API listens over HTTPS, and the certificate to trust. */
export interface StorageHttpsAddress {
  /** `localhost:<port>`: what storage zones now answer as `StorageHostname`. */
  storageHostname: string;
  /** The server's self-signed certificate, PEM, made for this run: trust it as an authority. */
  certificateAuthorityPem: string;
}
