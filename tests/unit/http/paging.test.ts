import assert from "node:assert/strict";
import { UnexpectedResponseError } from "bunnynet-pulumi/dist/http/errors.js";
import { PageGuard } from "bunnynet-pulumi/dist/http/paging.js";

/** The stop rules of a listing that follows the server's "there is more": bounds, repeated cursors, repeated pages. */
const guard = (maxPages = 100, maxItems = 1000) => new PageGuard("GET", "/regions", { maxPages, maxItems });
const stopped = (pattern: RegExp) => (e: unknown) => e instanceof UnexpectedResponseError && e.method === "GET" && e.path === "/regions" && pattern.test(e.message);

describe("unit: paging stop rules (PageGuard)", () => {
  it("allows maxPages pages and stops at the next one", () => {
    const g = guard(3);
    for (let i = 0; i < 3; i++) g.page([i]);
    assert.throws(() => g.page([3]), stopped(/^GET \/regions: the listing passed 3 pages \(maxPages\) and the server still says there is more$/));
  });

  it("allows maxItems items in all and stops at the page that passes it", () => {
    const g = guard(100, 5);
    g.page([1, 2, 3]);
    g.page([4, 5]);
    assert.throws(() => g.page([6]), stopped(/passed 5 items \(maxItems\)/));
    assert.throws(() => guard(100, 2).page([1, 2, 3]), stopped(/passed 2 items/));
  });

  it("stops when a non-empty page repeats the previous one (the server ignored the paging parameter)", () => {
    const g = guard();
    g.page([{ id: 1 }]);
    assert.throws(() => g.page([{ id: 1 }]), stopped(/answered page 2 with the same items as page 1/));
  });

  it("lets empty pages repeat (filtered pages may be empty) and the same items come back later, not in a row", () => {
    const g = guard();
    g.page([]);
    g.page([]);
    g.page([{ id: 1 }]);
    g.page([{ id: 2 }]);
    g.page([{ id: 1 }]);
  });

  it("stops on a cursor the server already gave; no cursor is no repeat", () => {
    const g = guard();
    g.page([1], "c1");
    g.page([2], null);
    g.page([3], undefined);
    g.page([4], "");
    g.page([5], "");
    g.page([6], "c2");
    assert.throws(() => g.page([7], "c1"), stopped(/the list repeated a cursor/));
  });

  it("counts each listing by itself", () => {
    const first = guard(1);
    first.page([1], "c1");
    const second = guard(1);
    second.page([1], "c1");
    assert.throws(() => first.page([2]), stopped(/1 pages/));
  });
});
