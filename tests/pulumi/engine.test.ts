import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { load } from "js-yaml";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { ProgramHarness, type RunResult } from "../support/programHarness";
import { HostError, ProviderHost, REPO_ROOT, UNKNOWN_VALUE, pluginDirectory } from "../support/providerHost";
import { projectWithPackage, type Project } from "../support/projectLayout";
import { QUICKSTART_PROJECT, QUICKSTART_SECRET_CONFIG, quickstartConfig } from "../support/quickstart";
import { quickstart } from "../../examples/quickstart/program";
import { z } from "zod";
import { BunnyResource, defineResource } from "bunnynet-pulumi/dist/pulumi/index.js";
import { DnsRecord } from "bunnynet-pulumi/dist/resources/dnsRecord.js";
import { DnsZone } from "bunnynet-pulumi/dist/resources/dnsZone.js";
import { RateLimitRule } from "bunnynet-pulumi/dist/resources/rateLimitRule.js";
import { ScriptVariable, type ScriptVariableArgs } from "bunnynet-pulumi/dist/resources/scriptVariable.js";
import { VideoThumbnail } from "bunnynet-pulumi/dist/resources/videoThumbnail.js";

const short = (urn: string) => urn.split("::").pop()!;
const opsByName = (run: RunResult) => Object.fromEntries(run.steps.map((s) => [short(s.urn), s.op]));
/** An image, for the emulator (which checks the magic bytes). */
const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** The routes the quickstart's lookups read (program-side functions, evaluated at every run, preview included). */
const LOOKUP_ROUTES = ["/apikey", "/mc/apps/:appId/endpoints", "/mc/regions", "/v2/pullzones/:pullZoneId/logs"];

/**
 * The engine's sequences through the SDK's real provider host: preview (Check and Diff only, unknowns at any depth),
 * refresh and destroy configured from the config saved at the last up, the plugin in `main`'s directory, assets
 * elided, and the resource options the engine applies.
 */
describe("pulumi: preview, up, refresh and destroy as the engine runs them", function () {
  this.timeout(60_000);
  let emu: TestEmulator;
  let host: ProviderHost;
  let scriptId: number;

  before(async () => {
    emu = await startEmulator();
    host = await ProviderHost.start({ project: QUICKSTART_PROJECT });
    scriptId = Number(emu.fixtures.scriptId);
  });
  after(async () => {
    await host?.stop();
    await emu?.stop();
  });

  /** The script's variable named `name`, read with the fixture's key (or another: after a rotation). */
  const variableNamed = async (name: string, apiKey?: string) =>
    (await emu.client(apiKey ? { apiKey } : {}).edgeScripts.getScript(scriptId)).EdgeScriptVariables.find((v) => v.Name === name);
  /** One ScriptVariable named `name`, as a whole program. */
  const oneVariable = (name: string, args: Partial<ScriptVariableArgs> = {}, opts?: pulumi.CustomResourceOptions) => () => {
    const v = new ScriptVariable("v", { scriptId, name, ...args }, opts);
    return { variableId: v.variableId };
  };

  describe("preview (Check and Diff only; the plan takes the checked inputs as outputs)", () => {
    let harness: ProgramHarness;
    let config: Record<string, string>;
    before(async () => {
      config = await quickstartConfig(emu);
      harness = new ProgramHarness({ project: QUICKSTART_PROJECT, config, secretConfig: QUICKSTART_SECRET_CONFIG, providerHost: host });
    });
    after(() => harness.destroy());

    /** Runs a preview and returns it with the API calls made meanwhile, which must all be the lookups' reads. */
    const previewOnlyReads = async (program: () => unknown) => {
      await emu.markRequests();
      const run = await harness.preview(program);
      const calls = await emu.requests();
      assert.deepEqual(calls.filter((c) => !LOOKUP_ROUTES.includes(c.route)), [], "no API call for the resources");
      assert.deepEqual([...new Set(calls.map((c) => c.method))], ["GET"]);
      assert.ok(run.rpcs.every((r) => r.method === "check" || r.method === "diff"), JSON.stringify(run.rpcs));
      return run;
    };

    it("the quickstart's first preview plans seven creates, sends only Check, and creates nothing", async () => {
      const run = await previewOnlyReads(quickstart);
      assert.deepEqual(run.steps.map((s) => s.op), Array(7).fill("create"));
      assert.deepEqual(run.rpcs.map((r) => r.method), Array(7).fill("check"));
      assert.equal(harness.resources().length, 0);
      assert.equal(await variableNamed("QUICKSTART_API_BASE"), undefined);
    });

    it("after up, an unchanged preview shows every resource the same", async () => {
      await harness.up(quickstart);
      const run = await previewOnlyReads(quickstart);
      assert.deepEqual(run.steps.map((s) => s.op), Array(7).fill("same"));
      assert.deepEqual(run.rpcs.map((r) => r.method).sort(), [...Array(7).fill("check"), ...Array(7).fill("diff")]);
    });

    it("a changed program previews the right in-place updates and replacement, and changes nothing", async () => {
      harness.setConfig({ ...config, [`${QUICKSTART_PROJECT}:edition`]: "second", [`${QUICKSTART_PROJECT}:hostname`]: "www2.quickstart.example" });
      const run = await previewOnlyReads(quickstart);
      assert.deepEqual(opsByName(run), { www: "replace", api: "update", "login-limit": "update", "api-base": "update", "signing-key": "same", poster: "update", "old-cache-instance": "same" });
      assert.equal((await variableNamed("QUICKSTART_API_BASE"))?.DefaultValue, "https://api.quickstart.example");
      harness.setConfig(config);
    });

    it("an input unknown deep inside a property is an update, not a replacement, and the rest is normalised", async () => {
      const zone = String(emu.fixtures.pullZoneId) as `${number}`; // a string id: check converts it, also around unknowns
      const configuration = (requestCount: pulumi.Input<number>) => ({
        variableTypes: { REQUEST_URI: "" }, operatorType: "BEGINSWITH" as const, value: "/api",
        chainedConditions: [{ variableTypes: { REQUEST_METHOD: "" }, operatorType: "STREQ" as const, value: "POST" }],
        actionType: "Block" as const, requestCount, timeframe: "PerOneMinute" as const, blockTime: "ForFiveMinutes" as const,
      });
      const rules = new ProgramHarness({ project: QUICKSTART_PROJECT, config, secretConfig: QUICKSTART_SECRET_CONFIG, providerHost: host });
      await rules.up(() => void new RateLimitRule("api", { pullZoneId: zone, name: "engine-unknowns", configuration: configuration(10) }));
      // A new variable's id is unknown at preview, so is the count computed from it.
      const run = await rules.preview(() => {
        const source = new ScriptVariable("count-source", { scriptId, name: "ENGINE_COUNT" });
        new RateLimitRule("api", { pullZoneId: zone, name: "engine-unknowns", configuration: configuration(source.variableId.apply(() => 10)) });
      });
      assert.deepEqual(opsByName(run), { "count-source": "create", api: "update" });
      await rules.destroy();
    });

    it("check normalises inputs around unknowns at any depth exactly as when they are known", async () => {
      const inputs = (requestCount: unknown, method: unknown) => ({
        pullZoneId: String(emu.fixtures.pullZoneId),
        name: "n",
        configuration: {
          variableTypes: { REQUEST_URI: "" }, operatorType: "BEGINSWITH", value: "/x", actionType: "Block", requestCount,
          timeframe: "PerOneMinute", blockTime: "ForFiveMinutes",
          chainedConditions: [{ variableTypes: { REQUEST_METHOD: "" }, operatorType: "STREQ", value: method }],
        },
      });
      type Checked = { pullZoneId: unknown; adoptExisting: unknown; configuration: { actionType: unknown; requestCount: unknown; chainedConditions: { value: unknown }[] } };
      const known = (await host.check("RateLimitRule", {}, inputs(10, "POST"))).inputs as Checked;
      const unknown = await host.check("RateLimitRule", {}, inputs(UNKNOWN_VALUE, UNKNOWN_VALUE));
      const checked = unknown.inputs as Checked;
      assert.deepEqual(unknown.failures, []);
      assert.equal(typeof checked.configuration.actionType, "number", "enum names become the API's numbers");
      assert.equal(checked.adoptExisting, false);
      assert.equal(checked.pullZoneId, Number(emu.fixtures.pullZoneId));
      const expected = structuredClone(known);
      expected.configuration.requestCount = UNKNOWN_VALUE;
      expected.configuration.chainedConditions[0].value = UNKNOWN_VALUE;
      assert.deepEqual(checked, expected);
    });
  });

  describe("refresh and destroy after the API key was rotated", () => {
    let harness: ProgramHarness;
    let config: Record<string, string>;
    const program = oneVariable("ROTATION");

    let restoreKey: () => void;
    let newKey: string;
    /** A new account key, and the old one revoked (until `restoreKey`: other tests share a provider host configured with it). */
    const rotateKey = (old: string): string => {
      const store = emu.emulator.ctx.store;
      const key = randomBytes(24).toString("hex");
      const id = store.nextId("apikey", 5001);
      store.put("apikey", id, { Id: id, Key: key, Roles: ["Admin"] });
      const previous = store.list<{ Id: number; Key: string }>("apikey").find((k) => k.Key === old)!;
      store.delete("apikey", previous.Id);
      restoreKey = () => store.put("apikey", previous.Id, previous);
      return key;
    };

    before(async () => {
      config = { "bunnynet:apiKey": emu.fixtures.accessKey, "bunnynet:apiUrl": emu.url, "bunnynet:maxRetries": "0" };
      // A new plugin process per command, as the engine starts one: each is configured afresh.
      harness = new ProgramHarness({ config, secretConfig: ["bunnynet:apiKey"], hostPerCommand: {} });
      await harness.up(program);
      newKey = rotateKey(emu.fixtures.accessKey);
      config = { ...config, "bunnynet:apiKey": newKey };
      harness.setConfig(config); // pulumi config set --secret bunnynet:apiKey <new key>
    });

    // The key that was refused, then both causes, neither advising the command just run as the fix.
    const savedKeyRefused =
      /answered 401[^\n]*\. The API key ending in \w{4} from stack config bunnynet:apiKey was refused: [^\n]* If bunnynet:apiKey was rotated since the last `pulumi up` and this was a refresh or destroy without `--run-program`, the key saved then was sent: run `pulumi up` first, or add `--run-program`\./;

    it("refresh and destroy still send the key saved at the last up, and say what to do", async () => {
      await assert.rejects(harness.refresh(), savedKeyRefused);
      await assert.rejects(harness.destroy(), savedKeyRefused);
      assert.equal(harness.resources().length, 1);
      assert.ok(await variableNamed("ROTATION", newKey), "nothing was deleted");
    });

    it("refresh --run-program uses the current key", async () => {
      assert.deepEqual((await harness.refresh({ runProgram: true })).map((s) => s.op), ["refresh"]);
    });

    it("refresh --run-program with a wrong key in stack config names that key and the fix, not the command just run", async () => {
      const wrong = `${newKey.slice(0, -4)}dead`;
      harness.setConfig({ ...config, "bunnynet:apiKey": wrong });
      try {
        await assert.rejects(harness.refresh({ runProgram: true }), (e: unknown) => {
          assert.match(String(e), /The API key ending in dead from stack config bunnynet:apiKey was refused: set the account's API key with `pulumi config set --secret bunnynet:apiKey <key>`/);
          assert.doesNotMatch(String(e), /run `pulumi refresh --run-program`/);
          assert.ok(!String(e).includes(wrong.slice(0, 12)));
          return true;
        });
      } finally {
        harness.setConfig(config);
      }
    });

    it("after pulumi up (nothing to change), refresh and destroy use the new key", async () => {
      assert.deepEqual((await harness.up(program)).steps.map((s) => s.op), ["same"]);
      assert.deepEqual((await harness.refresh()).map((s) => s.op), ["refresh"]);
      assert.deepEqual((await harness.destroy()).map((s) => s.op), ["delete"]);
      assert.equal(await variableNamed("ROTATION", newKey), undefined);
    });

    after(() => restoreKey());
  });

  describe("the plugin runs in the directory of main, in every layout of node_modules", () => {
    const projects: Project[] = [];
    after(() => projects.forEach((p) => p.remove()));
    const config = () => ({ "bunnynet:apiKey": emu.fixtures.accessKey, "bunnynet:apiUrl": emu.url });

    for (const [layout, main] of [["npm", "dist/"], ["pnpm", undefined], ["pnpm", "dist/"]] as const) {
      it(`deploys and destroys from a ${layout} layout${main ? ` with main: ${main}` : ""}`, async () => {
        const project = projectWithPackage(layout, main);
        projects.push(project);
        const harness = new ProgramHarness({ config: config(), secretConfig: ["bunnynet:apiKey"], hostPerCommand: project.host });
        const name = `LAYOUT_${layout}_${main ? "DIST" : "ROOT"}`.toUpperCase();
        await harness.up(oneVariable(name));
        assert.ok(await variableNamed(name));
        await harness.destroy();
        assert.equal(await variableNamed(name), undefined);
      });
    }

    it("deploys from this repository's own Pulumi.yaml (main: the compiled quickstart's file)", async () => {
      const { main } = load(readFileSync(join(REPO_ROOT, "Pulumi.yaml"), "utf8")) as { main: string };
      assert.equal(pluginDirectory(REPO_ROOT, main), join(REPO_ROOT, "dist", "examples", "quickstart"));
      const harness = new ProgramHarness({ config: config(), secretConfig: ["bunnynet:apiKey"], hostPerCommand: { projectDir: REPO_ROOT, main } });
      await harness.up(oneVariable("LAYOUT_REPOSITORY"));
      assert.ok(await variableNamed("LAYOUT_REPOSITORY"));
      await harness.destroy();
    });

    it("a package installed under an npm alias fails at check naming the directory, the package and the fix", async () => {
      const project = projectWithPackage("alias", "dist/");
      projects.push(project);
      const harness = new ProgramHarness({ config: config(), secretConfig: ["bunnynet:apiKey"], hostPerCommand: project.host });
      await emu.markRequests();
      await assert.rejects(harness.up(oneVariable("ALIASED")), (e: Error) => {
        assert.ok(e.message.includes(`bunnynet-pulumi cannot be found from ${join(project.dir, "dist")} (the directory of main in Pulumi.yaml`), e.message);
        assert.match(e.message, /under its own name \(not an npm alias\).*npm install bunnynet-pulumi/);
        return true;
      });
      assert.deepEqual(await emu.requests(), []);
    });
  });

  describe("assets are sent with their contents elided in old properties", () => {
    let dir: string;
    before(() => (dir = mkdtempSync(join(tmpdir(), "bunnynet-assets-"))));
    after(() => rmSync(dir, { recursive: true, force: true }));

    it("an unchanged FileAsset is the same; new content at the same path is an update; refresh and destroy work", async () => {
      const path = join(dir, "poster.png");
      writeFileSync(path, Buffer.from([...PNG_MAGIC, 1]));
      const harness = new ProgramHarness({ config: await quickstartConfig(emu), secretConfig: QUICKSTART_SECRET_CONFIG, providerHost: host });
      const f = emu.fixtures;
      const program = () => void new VideoThumbnail("poster", { libraryId: Number(f.videoLibraryId), videoId: String(f.videoId), file: new pulumi.asset.FileAsset(path) });
      assert.deepEqual((await harness.up(program)).steps.map((s) => s.op), ["create"]);
      assert.deepEqual((await harness.up(program)).steps.map((s) => s.op), ["same"]);
      writeFileSync(path, Buffer.from([...PNG_MAGIC, 2]));
      assert.deepEqual((await harness.up(program)).steps.map((s) => s.op), ["update"]);
      assert.deepEqual((await harness.refresh()).map((s) => s.op), ["refresh"]);
      assert.deepEqual((await harness.up(program)).steps.map((s) => s.op), ["same"]);
      assert.deepEqual((await harness.destroy()).map((s) => s.op), ["delete"]);
    });
  });

  describe("resource options", () => {
    let harness: ProgramHarness;
    beforeEach(async () => {
      harness = new ProgramHarness({ config: await quickstartConfig(emu), secretConfig: QUICKSTART_SECRET_CONFIG, providerHost: host });
    });
    afterEach(async () => {
      for (const r of harness.resources()) r.options.protect = false; // as `pulumi state unprotect`
      await harness.destroy();
    });

    it("ignoreChanges keeps the old value: the change is not made", async () => {
      await harness.up(oneVariable("OPT_IGNORE", { defaultValue: "one" }));
      const run = await harness.up(oneVariable("OPT_IGNORE", { defaultValue: "two" }, { ignoreChanges: ["defaultValue"] }));
      assert.deepEqual(run.steps.map((s) => s.op), ["same"]);
      assert.equal((await variableNamed("OPT_IGNORE"))?.DefaultValue, "one");
    });

    it("deleteBeforeReplace: true deletes the old object before creating its replacement", async () => {
      await harness.up(oneVariable("OPT_DBR_OLD"));
      const run = await harness.up(oneVariable("OPT_DBR_NEW", {}, { deleteBeforeReplace: true }));
      assert.deepEqual(run.steps.map((s) => s.op), ["replace"]);
      // The replacement's inputs are checked again, with no olds, before anything is deleted (step_generator.go).
      assert.deepEqual(run.rpcs.map((r) => r.method), ["check", "diff", "check", "delete", "create"]);
      assert.equal(await variableNamed("OPT_DBR_OLD"), undefined);
      assert.ok(await variableNamed("OPT_DBR_NEW"));
    });

    it("deleteBeforeReplace: false with adoptExisting is refused before anything is registered", async () => {
      await emu.markRequests();
      await assert.rejects(harness.up(oneVariable("OPT_ADOPT", { adoptExisting: true }, { deleteBeforeReplace: false })), /deleteBeforeReplace: false cannot be combined with adoptExisting/);
      assert.deepEqual(await emu.requests(), []);
    });

    it("retainOnDelete: destroy leaves the object in the API and sends no Delete", async () => {
      await harness.up(oneVariable("OPT_RETAIN", {}, { retainOnDelete: true }));
      await harness.destroy();
      assert.ok(await variableNamed("OPT_RETAIN"));
    });

    it("protect: destroy is refused and nothing is deleted", async () => {
      await harness.up(oneVariable("OPT_PROTECT", {}, { protect: true }));
      await assert.rejects(harness.destroy(), /protected/);
      assert.ok(await variableNamed("OPT_PROTECT"));
    });

    it("protect: destroy deletes what does not wait for the protected record and fails at it, as the engine does (tests/engine/options.test.ts)", async () => {
      const domain = `protect-${Date.now() % 100000}.example`;
      // tests/engine/programs/options.ts's zones and records, as the engine test destroys them.
      const program = () => {
        const zone = new DnsZone("zone", { domain });
        new DnsZone("other", { domain: `other.${domain}` });
        new DnsZone("kept", { domain: `kept.${domain}` }, { retainOnDelete: true });
        new DnsRecord("a", { dnsZoneId: zone.dnsZoneId, type: "A", name: "a", value: "192.0.2.1" });
        new DnsRecord("b", { dnsZoneId: zone.dnsZoneId, type: "A", name: "b", value: "192.0.2.2" }, { protect: true });
      };
      await harness.up(program);
      await assert.rejects(harness.destroy(), /b: the resource is protected/);
      assert.deepEqual(harness.resources().map((r) => r.name).sort(), ["b", "zone"]);
      const dns = emu.client().dns;
      const zoneId = Number(harness.resource("DnsZone", "zone")!.id);
      assert.deepEqual((await dns.getZone(zoneId)).Records.map((r) => r.Name).sort(), ["b"], "record a deleted, the protected b stays");
      assert.equal(await dns.findZoneByDomain(`other.${domain}`), undefined, "the other zone deleted");
      assert.ok(await dns.findZoneByDomain(`kept.${domain}`), "the retained zone stays in the API");
    });

    it("pulumi import cannot work: the engine's Read carries no provider text (adoptExisting is the way, as docs/guides/resource-options.md says)", async () => {
      // The SDK's host has no provider text to load. Recent SDKs read the empty properties as {} and fail to load the
      // text (require-from-string of undefined; cmd/dynamic-provider/index.js, readRPC: `getProperties()?.toJavaScript() ?? {}`);
      // 3.216, the lowest we support, fails one step earlier on the missing properties (`getProperties().toJavaScript()`).
      const noProviderText = /code must be a string, not undefined|Cannot read properties of undefined \(reading 'toJavaScript'\)/;
      await assert.rejects(host.importRead("ScriptVariable", "1"), (e: unknown) => e instanceof HostError && noProviderText.test(e.details));
    });

    it("a resource renamed (no alias) with adoptExisting keeps its object: the new name adopts it, the old name's delete leaves it", async () => {
      // A plugin process per command, as the engine starts them: what one deployment adopted is its own (see
      // provider/pulumi/adoption.ts); a shared host would carry it into the later destroy.
      const perCommand = new ProgramHarness({ config: await quickstartConfig(emu), secretConfig: QUICKSTART_SECRET_CONFIG, hostPerCommand: {} });
      await perCommand.up(oneVariable("OPT_RENAMED", { adoptExisting: true }));
      const renamed = () => void new ScriptVariable("renamed", { scriptId, name: "OPT_RENAMED", adoptExisting: true });
      const run = await perCommand.up(renamed);
      assert.deepEqual(run.steps.map((s) => `${s.urn.split("::").pop()} ${s.op}`), ["renamed create", "v delete"]);
      assert.ok(await variableNamed("OPT_RENAMED"), "the object the state holds is still there");
      // The next command is a deployment of its own: its delete deletes.
      await perCommand.destroy();
      assert.equal(await variableNamed("OPT_RENAMED"), undefined);
    });

    it("the resource option import is refused by the resource with the advice to adopt, before anything is sent (the kit ignores the option; the engine would fail in its import step)", async () => {
      await emu.markRequests();
      await assert.rejects(harness.up(oneVariable("OPT_IMPORT", {}, { import: "1" })), /ScriptVariable v: the resource option import cannot work[^]*adoptExisting: true in its inputs/);
      assert.deepEqual(await emu.requests(), []);
    });

    it("replaceOnChanges changes nothing for a dynamic resource (as docs/guides/resource-options.md says): the change is made in place", async () => {
      await harness.up(oneVariable("OPT_ROC", { defaultValue: "one" }));
      const run = await harness.up(oneVariable("OPT_ROC", { defaultValue: "two" }, { replaceOnChanges: ["defaultValue"] }));
      assert.deepEqual(run.steps.map((s) => s.op), ["update"]);
    });

    it("aliases: a resource renamed with an alias of its old name is the same resource, as under the engine (no call writes; the state holds only the new name)", async () => {
      await harness.up(oneVariable("OPT_ALIAS"));
      const id = harness.resource("ScriptVariable", "v")!.id;
      await emu.markRequests();
      const renamed = () => void new ScriptVariable("renamed", { scriptId, name: "OPT_ALIAS" }, { aliases: [{ name: "v" }] });
      const run = await harness.up(renamed);
      assert.deepEqual(run.steps.map((s) => `${s.urn.split("::").pop()} ${s.op}`), ["renamed same"]);
      assert.deepEqual((await emu.requests()).filter((r) => r.method !== "GET"), []);
      assert.equal(harness.resource("ScriptVariable", "v"), undefined);
      assert.equal(harness.resource("ScriptVariable", "renamed")!.id, id);
      // Its delete is the object's: the alias moved the state, not a copy of it.
      await harness.up(() => undefined);
      assert.equal(await variableNamed("OPT_ALIAS"), undefined);
    });
  });

  describe("the harness itself", () => {
    it("outputs the program cannot read (an asset without contents) fail the run, naming the resource, instead of hanging", async () => {
      const type = "TestElidedAssetOutput";
      const handle = defineResource<{ name: string; file: unknown }>()({
        type,
        inputs: z.object({ name: z.string() }).strict(),
        computedOutputs: ["file"],
        replaceOnChanges: ["name"],
        identity: ["name"],
        describe: (_obj: unknown, requested: { name: string }) => ({ id: "1", inputs: requested, outputs: { file: { [pulumi.runtime.specialSigKey]: pulumi.runtime.specialAssetSig, hash: "00" } } }),
        create: async () => ({}),
        get: async () => ({}),
        delete: async () => undefined,
      });
      class Broken extends BunnyResource {
        constructor(name: string) {
          super(handle, name, { name }, undefined);
        }
      }
      const harness = new ProgramHarness({ config: { "bunnynet:apiKey": "unused" } }); // in-process: the type exists only here
      await assert.rejects(harness.up(() => void new Broken("broken")), /TestElidedAssetOutput::broken: the program cannot read the outputs the provider answered: Invalid asset/);
    });
  });
});
