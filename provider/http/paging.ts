import { createHash } from "node:crypto";
import { UnexpectedResponseError } from "./errors";

/**
 * Bounds one listing that follows the server's "there is more" page after page (cursor, page number or offset).
 * A server that always says "more" (a new cursor every page, `HasMoreItems: true` forever, the same page again)
 * would otherwise keep a listing running until it is killed; this stops it with a clear error instead:
 * - at most `maxPages` pages and `maxItems` items (settings `maxPages`, `maxItems`);
 * - a cursor the server already gave is an error (the loop would never end);
 * - a non-empty page identical to the previous one is an error (the server ignored the paging parameter).
 */
export class PageGuard {
  private pages = 0;
  private items = 0;
  private readonly cursors = new Set<string>();
  private previous?: string;

  constructor(
    private readonly method: string,
    private readonly path: string,
    private readonly limits: { maxPages: number; maxItems: number },
  ) {}

  /** Records one page as received; throws UnexpectedResponseError when the listing must stop. */
  page(items: readonly unknown[], cursor?: string | null): void {
    this.pages++;
    this.items += items.length;
    if (this.pages > this.limits.maxPages) this.fail(`the listing passed ${this.limits.maxPages} pages (maxPages) and the server still says there is more`);
    if (this.items > this.limits.maxItems) this.fail(`the listing passed ${this.limits.maxItems} items (maxItems) and the server still says there is more`);
    if (items.length > 0) {
      const fingerprint = createHash("sha256").update(JSON.stringify(items)).digest("base64");
      if (fingerprint === this.previous) this.fail(`the server answered page ${this.pages} with the same items as page ${this.pages - 1}`);
      this.previous = fingerprint;
    }
    if (cursor) {
      if (this.cursors.has(cursor)) this.fail("the list repeated a cursor");
      this.cursors.add(cursor);
    }
  }

  private fail(message: string): never {
    throw new UnexpectedResponseError({ method: this.method, path: this.path, serverMessage: message });
  }
}

/**
 * Every item of a core listing that pages by number (`page`, `HasMoreItems`: PaginationListModelOf… in
 * core-api-v1.0.0.json), page after page, bounded by a PageGuard.
 */
export async function* numberedPages<T>(
  method: string,
  path: string,
  limits: { maxPages: number; maxItems: number },
  fetchPage: (page: number) => Promise<{ Items: T[]; HasMoreItems: boolean }>,
): AsyncGenerator<T> {
  const guard = new PageGuard(method, path, limits);
  for (let page = 1; ; page++) {
    const res = await fetchPage(page);
    guard.page(res.Items);
    yield* res.Items;
    if (!res.HasMoreItems || res.Items.length === 0) return;
  }
}

/**
 * Every item of a Shield listing (`{data, page: {currentPage, totalPages, nextPage}}`: PaginationResponse in
 * shield-api-v1.0.0.json), page after page, bounded by a PageGuard.
 */
export async function* shieldPages<T>(
  method: string,
  path: string,
  limits: { maxPages: number; maxItems: number },
  fetchPage: (page: number) => Promise<{ data: T[]; page: { currentPage: number; totalPages: number; nextPage?: number | null } }>,
): AsyncGenerator<T> {
  const guard = new PageGuard(method, path, limits);
  for (let page = 1; ; page++) {
    const res = await fetchPage(page);
    guard.page(res.data);
    yield* res.data;
    const hasNext = res.page.nextPage !== null && res.page.nextPage !== undefined && res.page.currentPage < res.page.totalPages;
    if (!hasNext || res.data.length === 0) return;
  }
}
