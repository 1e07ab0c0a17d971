import assert from "node:assert/strict";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { InvalidRequestError, UnauthorizedError, ValidationError } from "bunnynet-pulumi/dist/http/errors.js";

describe("client: API keys (GET /apikey)", () => {
  let emu: TestEmulator;
  before(async () => {
    emu = await startEmulator();
  });
  after(() => emu.stop());

  it("lists one page with the API's fields", async () => {
    const page = await emu.client().apiKeys.listPage({ page: 1, perPage: 5 });
    assert.equal(page.Items.length, 5);
    assert.equal(page.CurrentPage, 1);
    assert.equal(page.TotalItems, emu.fixtures.apiKeyCount);
    assert.equal(page.HasMoreItems, true);
    assert.equal(page.Items[0].Key, emu.fixtures.accessKey);
  });

  it("pages through every key at perPage=5 without repeating one", async () => {
    await emu.markRequests();
    const ids: number[] = [];
    for await (const key of emu.client().apiKeys.list({ perPage: 5 })) ids.push(key.Id);
    assert.equal(ids.length, emu.fixtures.apiKeyCount);
    assert.equal(new Set(ids).size, ids.length);
    const calls = (await emu.requests()).filter((r) => r.route === "/apikey");
    assert.equal(calls.length, Math.ceil(Number(emu.fixtures.apiKeyCount) / 5));
  });

  it("refuses out-of-range paging before sending anything", async () => {
    await emu.markRequests();
    await assert.rejects(emu.client().apiKeys.listPage({ perPage: 4 }), (e: unknown) => e instanceof InvalidRequestError && e.field === "perPage");
    await assert.rejects(emu.client().apiKeys.listPage({ page: 0 }), (e: unknown) => e instanceof InvalidRequestError && e.field === "page");
    assert.equal((await emu.requests()).length, 0);
  });

  it("the emulator itself refuses perPage outside 5..1000 with the core error shape", async () => {
    const res = await fetch(`${emu.url}/apikey?perPage=1001`, { headers: { AccessKey: emu.fixtures.accessKey } });
    assert.equal(res.status, 400);
    assert.deepEqual(await res.json(), { ErrorKey: "validation_error", Field: "perPage", Message: "perPage must be between 5 and 1000" });
  });

  it("a wrong key is refused with 401 and the error does not contain it", async () => {
    const wrong = "not-a-real-key-0000";
    await assert.rejects(emu.client({ apiKey: wrong }).apiKeys.listPage(), (e: unknown) => {
      assert.ok(e instanceof UnauthorizedError);
      assert.ok(!String((e as Error).message).includes(wrong));
      assert.ok(!JSON.stringify(e).includes(wrong));
      return true;
    });
  });

  it("server validation errors are typed and name the field", async () => {
    // Bypass the client-side check to see the server's answer normalised.
    const http = emu.client().http;
    await assert.rejects(http.request({ api: "core", method: "GET", path: "/apikey", query: { perPage: 2 } }), (e: unknown) => {
      assert.ok(e instanceof ValidationError);
      assert.equal(e.field, "perPage");
      assert.match(e.message, /GET \/apikey answered 400: perPage must be between 5 and 1000 \(validation_error\) \[field perPage\]/);
      return true;
    });
  });
});
