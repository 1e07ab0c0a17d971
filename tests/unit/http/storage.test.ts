import assert from "node:assert/strict";
import { storagePathProblem } from "bunnynet-pulumi/dist/schemas/storage.js";
import { storageOrigin } from "bunnynet-pulumi/dist/http/transport.js";
import { checkSentPath } from "bunnynet-pulumi/dist/http/pathSegments.js";
import { resolveSettings } from "bunnynet-pulumi/dist/settings.js";
import { forEachBounded } from "bunnynet-pulumi/dist/resources/localFolder.js";

describe("unit: the Storage API's paths, hosts and setting", () => {
  it("a file path is relative, with non-empty segments and no . or ..", () => {
    for (const ok of ["index.html", "css/site.css", "a b/ü.txt", "deep/er/still.js"]) assert.equal(storagePathProblem(ok), undefined, ok);
    const bad: Record<string, RegExp> = {
      "": /empty/,
      "/index.html": /start or end/,
      "css/": /start or end/,
      "a//b": /empty segment/,
      "a/./b": /\. or \.\./,
      "../up": /\. or \.\./,
      "a\\b": /backslash/,
      "a\nb": /control/,
      ["x".repeat(1025)]: /at most 1024/,
    };
    for (const [path, reason] of Object.entries(bad)) assert.match(storagePathProblem(path) ?? "", reason, JSON.stringify(path));
  });

  it("a directory listing's trailing slash is no empty segment; an inner one still is", () => {
    assert.doesNotThrow(() => checkSentPath("GET", "/zone/css/"));
    assert.throws(() => checkSentPath("GET", "/zone//css"), /must not be empty/);
  });

  it("the zone password goes only to a bunny.net storage host", () => {
    assert.equal(storageOrigin("storage.bunnycdn.com"), "https://storage.bunnycdn.com");
    assert.equal(storageOrigin("NY.storage.bunnycdn.com"), "https://ny.storage.bunnycdn.com");
    for (const host of [undefined, "", "evil.example", "storage.bunnycdn.com.evil.example", "x.y.storage.bunnycdn.com", "storage.bunnycdn.com/path"]) {
      assert.throws(() => storageOrigin(host), /no bunny.net storage host/, String(host));
    }
  });

  it("storageApiUrl: config, then BUNNYNET_STORAGE_API_URL, else unset (each zone's host)", () => {
    assert.equal(resolveSettings({ apiKey: "k" }, {}).storageApiUrl, undefined);
    assert.equal(resolveSettings({ apiKey: "k" }, { BUNNYNET_STORAGE_API_URL: "http://127.0.0.1:1/storage/" }).storageApiUrl, "http://127.0.0.1:1/storage");
    assert.equal(resolveSettings({ apiKey: "k", storageApiUrl: "https://a.example" }, { BUNNYNET_STORAGE_API_URL: "https://b.example" }).storageApiUrl, "https://a.example");
    assert.throws(() => resolveSettings({ apiKey: "k", storageApiUrl: "ftp://x" }, {}), /storageApiUrl must be an http\(s\) URL/);
  });

  it("forEachBounded runs every item, never more than the limit at once, and rejects with the first failure", async () => {
    let running = 0;
    let peak = 0;
    const seen: number[] = [];
    await forEachBounded([...Array(20).keys()], 3, async (i) => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((r) => setImmediate(r));
      seen.push(i);
      running--;
    });
    assert.deepEqual(seen.sort((a, b) => a - b), [...Array(20).keys()]);
    assert.ok(peak <= 3 && peak > 1, `peak ${peak}`);
    await assert.rejects(
      forEachBounded([1, 2, 3], 2, async (i) => {
        if (i === 2) throw new Error("two");
      }),
      /two/,
    );
  });
});
