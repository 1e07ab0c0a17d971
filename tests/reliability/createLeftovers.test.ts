import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { HostError, ProviderHost, hostConfig } from "../support/providerHost";
import { tinyMp4 } from "../support/videoFile";

/**
 * A create that fails half way leaves exactly one object, recorded, or none: faults injected on the one request
 * after which the server has acted, through the provider as the engine drives it.
 */
describe("reliability: a create cut half way leaves one object, recorded, or none", function () {
  let emu: TestEmulator;
  let host: ProviderHost;
  let dir: string;
  let counter = 0;

  before(async () => {
    emu = await startEmulator();
    host = await ProviderHost.start();
    await host.configure(hostConfig(emu));
    dir = mkdtempSync(join(tmpdir(), "create-leftovers-"));
  });
  after(async () => {
    await host?.stop();
    await emu?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  afterEach(() => emu.clearFaults());

  async function checked(type: string, props: Record<string, unknown>) {
    const res = await host.check(type, {}, props);
    assert.deepEqual(res.failures, []);
    return res.inputs;
  }

  describe("EdgeScript whose publish fails", () => {
    const scriptsNamed = async (name: string) => (await emu.client().edgeScripts.findScriptsByName(name)).map((s) => s.Id);
    const pullZoneCount = async () => {
      let n = 0;
      for await (const zone of emu.client().pullZones.listPullZones()) if (zone) n++;
      return n;
    };

    for (const phase of ["before", "after"] as const) {
      it(`(${phase === "before" ? "refused" : "acted on, its answer lost"}) twice: published at the third try, one script, recorded; delete removes it`, async () => {
        const name = `twice-unpublished-${++counter}`;
        const inputs = await checked("EdgeScript", { name, type: "Standalone", code: "export default () => new Response('ok')" });
        const zonesBefore = await pullZoneCount();
        await emu.faults({ rules: [{ path: "^/compute/script/\\d+/publish$", method: "POST", errorRate: 1, errorStatus: 500, phase, times: 2 }] });
        await emu.markRequests();
        const made = await host.create("EdgeScript", inputs);
        const publishes = (await emu.requests()).filter((r) => r.route === "/compute/script/:id/publish").map((r) => r.status);
        assert.deepEqual(publishes, [500, 500, 204]);
        assert.deepEqual(await scriptsNamed(name), [Number(made.id)]);
        assert.ok(made.outputs.releaseId !== undefined, "published");
        await host.delete("EdgeScript", made.id, made.outputs, inputs);
        assert.deepEqual(await scriptsNamed(name), []);
        assert.equal(await pullZoneCount(), zonesBefore, "its linked pull zone went with it");
      });

      it(`(${phase === "before" ? "refused" : "acted on, its answer lost"}) every time: the script and its pull zone are deleted again; the next create makes one`, async () => {
        const name = `never-published-${++counter}`;
        const inputs = await checked("EdgeScript", { name, type: "Standalone", code: "export default () => new Response('ok')" });
        const zonesBefore = await pullZoneCount();
        await emu.faults({ rules: [{ path: "^/compute/script/\\d+/publish$", method: "POST", errorRate: 1, errorStatus: 500, phase }] });
        await assert.rejects(host.create("EdgeScript", inputs), (e: unknown) => e instanceof HostError && /answered 500/.test(e.message) && /deleted again, so nothing is left behind/.test(e.message));
        assert.deepEqual(await scriptsNamed(name), [], "no script left unrecorded");
        assert.equal(await pullZoneCount(), zonesBefore, "nor its linked pull zone");
        await emu.clearFaults();
        // The next `up` is refused nothing as "existing".
        const made = await host.create("EdgeScript", inputs);
        assert.deepEqual(await scriptsNamed(name), [Number(made.id)]);
      });
    }
  });

  describe("EdgeScript whose create answer is lost, and whose publish then fails", () => {
    it("the script found after the lost answer is deleted again when it cannot be published; the next create makes one", async () => {
      const name = `lost-then-unpublished-${++counter}`;
      const inputs = await checked("EdgeScript", { name, type: "Middleware", code: "export default () => new Response('ok')" });
      await emu.faults({
        rules: [
          { path: "^/compute/script$", method: "POST", phase: "after", errorRate: 1, errorStatus: 500, times: 1 },
          { path: "^/compute/script/\\d+/publish$", method: "POST", errorRate: 1, errorStatus: 500, times: 1 },
        ],
      });
      await emu.markRequests();
      // The create was answered (500) though it had made the script: the message says so, not that no answer came.
      await assert.rejects(host.create("EdgeScript", inputs), (e: unknown) => {
        assert.ok(e instanceof HostError);
        assert.match(e.message, /publish answered 500.*The EdgeScript this create made \(id \d+; the create was answered 500, yet had made it\) was deleted again/);
        assert.doesNotMatch(e.message, /answer lost/);
        return true;
      });
      const calls = (await emu.requests()).map((r) => `${r.method} ${r.route} ${r.status}`);
      assert.ok(calls.includes("POST /compute/script 500") && calls.includes("POST /compute/script/:id/publish 500"), calls.join("\n"));
      assert.deepEqual(await emu.client().edgeScripts.findScriptsByName(name), [], "no script left unrecorded");
      const made = await host.create("EdgeScript", inputs);
      assert.deepEqual((await emu.client().edgeScripts.findScriptsByName(name)).map((s) => String(s.Id)), [made.id]);
    });
  });

  describe("a create whose answer is lost, and whose look-up then fails a whole round of retries (issue 36)", () => {
    const variablesNamed = async (name: string) => (await emu.client().edgeScripts.getScript(Number(emu.fixtures.scriptId))).EdgeScriptVariables.filter((v) => v.Name === name).map((v) => String(v.Id));

    it("the look-up is tried again after a pause: the variable the server made is found and recorded, and the create is sent once", async () => {
      const name = `LOST_THEN_UNREAD_${++counter}`;
      const inputs = await checked("ScriptVariable", { scriptId: Number(emu.fixtures.scriptId), name, defaultValue: "one" });
      await emu.faults({
        rules: [
          { path: "^/compute/script/\\d+/variables/add$", method: "POST", phase: "after", errorRate: 1, errorStatus: 500, times: 1 },
          // The look-up before the create passes; the one after the lost answer fails both its tries (maxRetries 1).
          { path: "^/compute/script/\\d+$", method: "GET", errorRate: 1, errorStatus: 503, skip: 1, times: 2 },
        ],
      });
      await emu.markRequests();
      const made = await host.create("ScriptVariable", inputs);
      const calls = (await emu.requests()).map((r) => `${r.method} ${r.route} ${r.status}`);
      assert.deepEqual(calls.filter((c) => c.startsWith("POST")), ["POST /compute/script/:id/variables/add 500"], "the create was sent once");
      assert.deepEqual(calls.filter((c) => c.startsWith("GET /compute/script/:id ")), ["GET /compute/script/:id 200", "GET /compute/script/:id 503", "GET /compute/script/:id 503", "GET /compute/script/:id 200"]);
      assert.deepEqual(await variablesNamed(name), [made.id], "one variable, the one recorded");
    });
  });

  describe("StreamVideo whose create answer is lost after the server made the video", () => {
    const libraryId = () => Number(emu.fixtures.videoLibraryId);
    const videosTitled = async (title: string) => {
      const found: { guid: string; status?: number }[] = [];
      for await (const v of emu.client().stream.listVideos(libraryId(), { search: title })) if (v.title === title) found.push(v);
      return found;
    };
    const videoFile = () => {
      const path = join(dir, `clip-${++counter}.mp4`);
      writeFileSync(path, tinyMp4(3, 2048, counter));
      return path;
    };

    for (const lost of [{ errorRate: 1, errorStatus: 500 }, { dropRate: 1 }]) {
      it(`(${"dropRate" in lost ? "connection dropped" : "answered 500"}): the video made is found and uploaded into; exactly one video, recorded`, async () => {
        const title = `lost-answer-${++counter}`;
        const inputs = await checked("StreamVideo", { libraryId: libraryId(), title, source: videoFile(), encodeTimeoutSeconds: 30 });
        await emu.faults({ rules: [{ path: "^/library/\\d+/videos$", method: "POST", phase: "after", times: 1, ...lost }] });
        await emu.markRequests();
        const made = await host.create("StreamVideo", inputs);
        const creates = (await emu.requests()).filter((r) => r.method === "POST" && r.route === "/library/:libraryId/videos");
        // (A connection dropped after the route acted is not in the emulator's request log: the video count tells.)
        if (!("dropRate" in lost)) assert.equal(creates.length, 1, "the create was not sent again");
        const videos = await videosTitled(title);
        assert.deepEqual(videos.map((v) => v.guid), [made.outputs.videoId], "one video, the one recorded");
        assert.notEqual(videos[0].status, 0, "uploaded into, not left empty");
      });
    }

    for (const lost of [{ errorRate: 1, errorStatus: 500 }, { dropRate: 1 }]) {
      it(`from a URL (${"dropRate" in lost ? "connection dropped" : "answered 500"}): the video fetched is found, not fetched again; exactly one video, recorded`, async () => {
        const title = `lost-fetch-${++counter}`;
        const inputs = await checked("StreamVideo", { libraryId: libraryId(), title, source: { url: `https://media.example.com/${title}.mp4` }, encodeTimeoutSeconds: 30 });
        await emu.faults({ rules: [{ path: "^/library/\\d+/videos/fetch$", method: "POST", phase: "after", times: 1, ...lost }] });
        await emu.markRequests();
        const made = await host.create("StreamVideo", inputs);
        const fetches = (await emu.requests()).filter((r) => r.method === "POST" && r.route === "/library/:libraryId/videos/fetch");
        if (!("dropRate" in lost)) assert.equal(fetches.length, 1, "the fetch was not sent again");
        assert.deepEqual((await videosTitled(title)).map((v) => v.guid), [made.outputs.videoId], "one video, the one recorded");
      });
    }

    it("from a URL, a fetch refused before the server acted is sent again; a failed look-up sends nothing again", async () => {
      const title = `refused-fetch-${++counter}`;
      const inputs = await checked("StreamVideo", { libraryId: libraryId(), title, source: { url: `https://media.example.com/${title}.mp4` }, encodeTimeoutSeconds: 30 });
      await emu.faults({ rules: [{ path: "^/library/\\d+/videos/fetch$", method: "POST", phase: "before", errorRate: 1, errorStatus: 503, times: 1 }] });
      const made = await host.create("StreamVideo", inputs);
      assert.deepEqual((await videosTitled(title)).map((v) => v.guid), [made.outputs.videoId]);

      const other = `lookup-fails-fetch-${++counter}`;
      const otherInputs = await checked("StreamVideo", { libraryId: libraryId(), title: other, source: { url: `https://media.example.com/${other}.mp4` }, encodeTimeoutSeconds: 30 });
      await emu.faults({
        rules: [
          { path: "^/library/\\d+/videos/fetch$", method: "POST", phase: "after", errorRate: 1, errorStatus: 500, times: 1 },
          // The look-ups before the fetch pass (two: the resource's and the client's), then every one fails.
          { path: "^/library/\\d+/videos$", method: "GET", errorRate: 1, errorStatus: 503, skip: 2 },
        ],
      });
      await assert.rejects(host.create("StreamVideo", otherInputs), (e: unknown) => e instanceof HostError && /look-up of whether the video was fetched failed too/.test(e.message) && e.message.includes(other));
      await emu.clearFaults();
      assert.equal((await videosTitled(other)).length, 1, "the one the server made, told of in the error");
    });

    it("a create refused before the server acted is sent again: still exactly one video", async () => {
      const title = `refused-${++counter}`;
      const inputs = await checked("StreamVideo", { libraryId: libraryId(), title, source: videoFile(), encodeTimeoutSeconds: 30 });
      await emu.faults({ rules: [{ path: "^/library/\\d+/videos$", method: "POST", phase: "before", errorRate: 1, errorStatus: 503, times: 1 }] });
      await emu.markRequests();
      const made = await host.create("StreamVideo", inputs);
      const creates = (await emu.requests()).filter((r) => r.method === "POST" && r.route === "/library/:libraryId/videos").map((r) => r.status);
      assert.deepEqual(creates, [503, 200]);
      assert.deepEqual((await videosTitled(title)).map((v) => v.guid), [made.outputs.videoId]);
    });

    it("when the look-up fails too, nothing is sent again and the error says what to look for", async () => {
      const title = `lookup-fails-${++counter}`;
      const inputs = await checked("StreamVideo", { libraryId: libraryId(), title, source: videoFile(), encodeTimeoutSeconds: 30 });
      await emu.faults({
        rules: [
          { path: "^/library/\\d+/videos$", method: "POST", phase: "after", errorRate: 1, errorStatus: 500, times: 1 },
          { path: "^/library/\\d+/videos$", method: "GET", errorRate: 1, errorStatus: 503 },
        ],
      });
      await assert.rejects(host.create("StreamVideo", inputs), (e: unknown) => e instanceof HostError && /look-up of whether the video was made failed too/.test(e.message) && e.message.includes(title));
      await emu.clearFaults();
      assert.equal((await videosTitled(title)).length, 1, "the one the server made, told of in the error");
    });
  });
});
