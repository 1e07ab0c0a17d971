import type { V1LogFields } from "./format";

/**
 * Which entries to keep, as the v1 API's own `status`/`search` parameters and the CLI express it:
 * - status: exact codes (404) or classes ("5xx"); OR-ed.
 * - cacheStatus: any of the values (HIT, MISS, …, "-"), case-insensitive.
 * - search: a case-insensitive substring of the URL, referer, user agent, request id, edge location,
 *   remote IP or country code.
 */
export interface V1FilterSpec {
  status?: readonly (number | string)[];
  cacheStatus?: readonly string[];
  search?: string;
}

/** A compiled filter: cheap checks on status and cache status first, the substring search last. */
export class V1Filter {
  private readonly codes: Set<number> | undefined;
  /** Bit i set: class (i)xx accepted. */
  private readonly classes: number;
  private readonly cacheStatuses: Set<string> | undefined;
  private readonly needle: string | undefined;
  private readonly needleHasLetters: boolean;

  constructor(spec: V1FilterSpec = {}) {
    let classes = 0;
    let codes: Set<number> | undefined;
    for (const item of spec.status ?? []) {
      const cls = typeof item === "string" ? /^([1-5])xx$/i.exec(item.trim()) : null;
      if (cls) {
        classes |= 1 << Number(cls[1]);
        continue;
      }
      const code = Number(item);
      if (!Number.isInteger(code) || code < 100 || code > 599) throw new RangeError(`status filter: ${JSON.stringify(item)} is neither a code (100-599) nor a class like 5xx`);
      (codes ??= new Set()).add(code);
    }
    this.codes = codes;
    this.classes = classes;
    this.cacheStatuses = spec.cacheStatus?.length ? new Set(spec.cacheStatus.map((c) => c.toUpperCase())) : undefined;
    this.needle = spec.search ? spec.search.toLowerCase() : undefined;
    this.needleHasLetters = this.needle !== undefined && this.needle !== this.needle.toUpperCase();
  }

  /** True when nothing is filtered out. */
  get isEmpty(): boolean {
    return this.codes === undefined && this.classes === 0 && this.cacheStatuses === undefined && this.needle === undefined;
  }

  /** The checks that need no strings beyond the two short fields (run before an entry is built). */
  acceptsStatus(statusCode: number, cacheStatus: string): boolean {
    if (this.codes !== undefined || this.classes !== 0) {
      const cls = Math.floor(statusCode / 100);
      const inClass = cls <= 5 && (this.classes & (1 << cls)) !== 0;
      if (!inClass && !(this.codes?.has(statusCode) ?? false)) return false;
    }
    return this.cacheStatuses === undefined || this.cacheStatuses.has(cacheStatus) || this.cacheStatuses.has(cacheStatus.toUpperCase());
  }

  acceptsSearch(e: V1LogFields): boolean {
    if (this.needle === undefined) return true;
    return (
      this.contains(e.url) ||
      this.contains(e.userAgent) ||
      this.contains(e.referer) ||
      this.contains(e.requestId) ||
      this.contains(e.edgeLocation) ||
      this.contains(e.remoteIp) ||
      this.contains(e.countryCode)
    );
  }

  test(e: V1LogFields): boolean {
    return this.acceptsStatus(e.statusCode, e.cacheStatus) && this.acceptsSearch(e);
  }

  private contains(value: string | undefined): boolean {
    if (value === undefined || value.length < this.needle!.length) return false;
    // Lower-casing costs a copy per field; skip it when the needle has no letters to fold.
    return (this.needleHasLetters ? value.toLowerCase() : value).includes(this.needle!);
  }
}
