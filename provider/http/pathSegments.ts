/** What can be sent as one URL path segment. Shared by the transport (last line of defence) and the id schemas. */

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
