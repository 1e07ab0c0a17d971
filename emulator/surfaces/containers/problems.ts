import type { FastifyReply } from "fastify";
import { problem } from "../../errorShapes";

/**
 * Magic Containers' error answers, problem details (`problem` in errorShapes.ts).
 *
 * Sources: magic-containers-api-v1.0.0.json (bunny.net's published OpenAPI document); BUNNY-API.md.
 * - Validation and not-found errors have the extended shape with `errors[]` and `id`, which is the application's id
 *   (the document's ErrorDetails.id: "The application ID, returned as an RFC 7807 extension field when relevant"),
 *   never a request id; absent where no application is named.
 */

export function validationProblem(reply: FastifyReply, field: string, message: string): FastifyReply {
  return problem(reply, 400, "One or more validation errors occurred.", message, [{ field, message }]);
}

export function notFound(reply: FastifyReply, field: string, what: string): FastifyReply {
  return problem(reply, 404, "Not Found", `${what} was not found.`, [{ field, message: `${what} was not found.` }]);
}
