import type { FastifyReply } from "fastify";

/**
 * Each bunny.net API answers errors in its own shape; the emulator reproduces them exactly,
 * so the client's normalisation is tested against every one.
 */
export type ApiFamily = "core" | "shield" | "containers" | "stream" | "logging" | "storage";

/** Which API a URL belongs to (all of them are served at one origin). */
export function familyOf(url: string): ApiFamily {
  const path = url.split("?")[0];
  if (path.startsWith("/shield")) return "shield";
  if (path.startsWith("/storage/")) return "storage";
  if (path.startsWith("/mc/") || path === "/mc") return "containers";
  if (path.startsWith("/library/") || path === "/tusupload" || path.startsWith("/tusupload/")) return "stream";
  if (path.startsWith("/v2/") || /^\/\d{2}-\d{2}-\d{2}\//.test(path)) return "logging";
  return "core";
}

/** Core: `{ErrorKey, Field, Message}`; 401/404/500 with an empty body unless a message is given. */
export function coreError(reply: FastifyReply, status: number, errorKey?: string, field?: string, message?: string): FastifyReply {
  if (message === undefined && errorKey === undefined) return reply.code(status).send();
  return reply.code(status).send({ ErrorKey: errorKey ?? null, Field: field ?? null, Message: message ?? null });
}

/** Shield: GenericRequestResponse for most errors; `{statusCode:401}` (UnauthorizedResult) for auth. */
export function shieldError(reply: FastifyReply, status: number, message: string, errorKey?: string): FastifyReply {
  if (status === 401) return reply.code(401).send({ statusCode: 401 });
  return reply.code(status).send({ statusCode: status, success: false, message, errorKey: errorKey ?? null });
}

/** Shield's other error shape `{error:{message, errorKey}}` (seen on validation failures). */
export function shieldNestedError(reply: FastifyReply, status: number, message: string, errorKey: string): FastifyReply {
  return reply.code(status).send({ error: { message, errorKey } });
}

/**
 * Magic Containers: RFC 7807 problem details in the two shapes magic-containers-api-v1.0.0.json gives them. A 401 is
 * ProblemDetails (`type`, `title`, `status`, `detail`, `instance`); every other error is ErrorDetails, which has no
 * `type` and allows no property beyond `title`, `status`, `detail`, `instance`, `errors[]` and `id` (the application's
 * id where the route names one, ErrorDetails.id; never a request id).
 */
export function problem(reply: FastifyReply, status: number, title: string, detail?: string, errors?: { field: string; message: string }[]): FastifyReply {
  const shared = { title, status, detail: detail ?? null, instance: reply.request.url.split("?")[0] };
  const base = status === 401 ? { type: `https://httpstatuses.io/${status}`, ...shared } : shared;
  const appId = (reply.request.params as { appId?: string } | undefined)?.appId;
  const body = errors ? { ...base, errors, ...(appId !== undefined ? { id: appId } : {}) } : base;
  return reply.code(status).header("content-type", "application/problem+json").send(body);
}

/** Stream: the StatusModel `{success:false, message, statusCode}`. */
export function streamError(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply.code(status).send({ success: false, message, statusCode: status });
}

/** Logging: `{error:{code, message, details?}}`. */
export function loggingError(reply: FastifyReply, status: number, code: string, message: string, details?: Record<string, unknown>): FastifyReply {
  return reply.code(status).send({ error: details ? { code, message, details } : { code, message } });
}

/** The Storage API: `{HttpCode, Message}`. */
export function storageError(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply.code(status).send({ HttpCode: status, Message: message });
}

/** The generic "route answered an error" in the right shape for its API family. */
export function errorFor(reply: FastifyReply, status: number, message: string, key: string): FastifyReply {
  switch (familyOf(reply.request.url)) {
    case "shield":
      return shieldError(reply, status, message, key);
    case "containers":
      return problem(reply, status, message);
    case "stream":
      return streamError(reply, status, message);
    case "logging":
      return loggingError(reply, status, key, message);
    case "storage":
      return storageError(reply, status, message);
    default:
      return coreError(reply, status, key, undefined, message);
  }
}
