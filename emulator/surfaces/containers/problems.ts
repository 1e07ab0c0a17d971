import type { FastifyReply } from "fastify";
import { z } from "zod";
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

/** An enum of the document, read in any case and answered in the document's. */
export function documentEnum<const T extends string>(values: readonly T[]) {
  return z.string().transform((value, ctx): T => {
    const found = values.find((v) => v.toLowerCase() === value.toLowerCase());
    if (found === undefined) {
      ctx.addIssue({ code: "custom", message: `must be one of ${values.join(", ")}` });
      return z.NEVER;
    }
    return found;
  });
}

/** The first issue as a field path and message, the way the API's ValidationError names it. */
export function firstIssue(error: z.ZodError): { field: string; message: string } {
  const issue = error.issues[0];
  const keys = issue.code === "unrecognized_keys" ? issue.keys : [];
  return { field: [...issue.path.map(String), ...keys.slice(0, 1)].join(".") || "body", message: issue.code === "unrecognized_keys" ? "is not a known property" : issue.message };
}

