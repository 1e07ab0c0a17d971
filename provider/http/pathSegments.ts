/**
 * What can be sent as a URL path: the segments a request names (ids) and the path as sent. Shared by the transport
 * (last line of defence), `encodePath` (every client method builds its paths with it) and the id schemas.
 */
import { InvalidRequestError } from "./errors";

/** The longest path segment (an id) the package sends; longer ones are refused before sending. */
export const MAX_PATH_SEGMENT = 512;

/**
 * Why a path segment (an id) cannot be sent, or undefined when it can. `.` and `..` (in any spelling the URL
 * parser resolves, such as `%2e%2E`) would be resolved away and reach another route; an empty segment changes the
 * route too; a lone surrogate cannot be encoded; an over-long one is no id.
 */
export function pathSegmentProblem(segment: string): string | undefined {
  if (segment.length === 0) return "must not be empty";
  if (segment.length > MAX_PATH_SEGMENT) return `must be at most ${MAX_PATH_SEGMENT} characters (got ${segment.length})`;
  if (/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(segment)) return "is not well-formed Unicode (it holds a lone surrogate)";
  if (/^(\.|%2e){1,2}$/i.test(segment)) return "must not be . or .. (the URL would name another route)";
  return undefined;
}

/**
 * Encodes each path segment: `encodePath("pullzone", id, "addHostname")` → `/pullzone/42/addHostname`. A segment
 * that cannot be sent (see `pathSegmentProblem`) is refused with InvalidRequestError; client methods validate their
 * ids first, so this is the last line of defence and names only the segment's position.
 */
export function encodePath(...segments: (string | number)[]): string {
  const issues = segmentIssues(segments.map(String));
  if (issues.length > 0) throw new InvalidRequestError("", "(path)", issues);
  return "/" + segments.map((s) => encodeURIComponent(String(s))).join("/");
}

/**
 * The path as sent must not hold a segment the URL parser would resolve away (`.`, `..`) or change the route. A
 * trailing slash (a Storage API directory listing) is no empty segment.
 */
export function checkSentPath(method: string, path: string): void {
  const issues = segmentIssues(path.replace(/(.)\/$/, "$1").split("/").slice(1).map(decoded));
  if (path.length > 4 * MAX_PATH_SEGMENT) issues.push({ field: "path", message: `must be at most ${4 * MAX_PATH_SEGMENT} characters` });
  if (issues.length > 0) throw new InvalidRequestError(method, path, issues);
}

/** The segments that cannot be sent, each named by its position. */
function segmentIssues(segments: string[]): { field: string; message: string }[] {
  return segments.flatMap((segment, i) => {
    const problem = pathSegmentProblem(segment);
    return problem ? [{ field: `path segment ${i + 1}`, message: problem }] : [];
  });
}

/** A segment as the server's URL parser reads it. */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    // Not percent-encoded text: checked as it is.
    return segment;
  }
}
