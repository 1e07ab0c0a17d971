import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { stackConfigFor } from "bunnynet-emulator/testing";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { EngineStack, skipWithoutCli } from "../support/engineCycle";
import { compiledProject } from "../support/pulumiCli";
import { installPlugin, previewSteps } from "./pluginSupport";

const PROJECT = "plugin-import-children";
/** Inputs of the framework that are no property of the object (adoption is for programs that create). */
const NOT_OF_THE_OBJECT = ["adoptExisting"];
const FILE_TEXT = "made elsewhere\n";
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex").toUpperCase();

/** One object made outside Pulumi: its type, the name it is imported as, the id given to `pulumi import`, and the id create would have stored. */
interface Imported {
  type: string;
  name: string;
  importId: string;
  storedId: string;
}

/**
 * `pulumi import` of objects the API reads within their parent (and of a few read by their own id), by the composite ids of each definition's `importId`
 * (provider/pulumi/importIds.ts), through the plugin and the real CLI against the emulator. The engine stores the id the
 * plugin's Read answers (pulumi/pulumi pkg/resource/deploy/step.go, ImportStep.Apply), so the state holds the object's
 * own id, as a create stores it; a program declaring the recorded inputs then previews with no change, and an `up`
 * sends no write. `get` (a read step: ReadStep.Apply) takes the same composite id.
 */
describe("plugin: pulumi import and get by composite ids", function () {
  this.timeout(600_000);
  let emu: TestEmulator;
  let stack: EngineStack;
  let dnsZoneId: number;
  let record: { Id: number; Value: string };
  let scriptId: number;
  let secretId: number;
  let fileId: string;
  const imported: Imported[] = [];
  /** Imported without a program declaring them here: their program must give what the import cannot read (code, a password, a source). */
  const readOnly: Imported[] = [];

  before(async function () {
    skipWithoutCli(this);
    emu = await startEmulator();
    const client = emu.client();
    dnsZoneId = (await client.dns.addZone("children.example")).Id;
    record = await client.dns.addRecord(dnsZoneId, { Type: 0, Name: "www", Value: "192.0.2.10", Ttl: 300 });
    const pullZoneId = (await client.pullZones.createPullZone({ Name: "children-cdn", OriginUrl: "https://origin.children.example" })).Id;
    await client.pullZones.addHostname(pullZoneId, "cdn.children.example");
    const hostname = (await client.pullZones.getPullZone(pullZoneId)).Hostnames.find((h) => h.Value === "cdn.children.example")!;
    const edgeRule = await client.pullZones.addOrUpdateEdgeRule(pullZoneId, {
      ActionType: 4,
      Triggers: [{ Type: 4, PatternMatches: ["KP"], PatternMatchingType: 0, Parameter1: "" }],
      TriggerMatchingType: 0,
      Description: "made by hand",
      Enabled: true,
      OrderIndex: 7,
    });
    const shieldZoneId = (await client.shieldZones.create({ pullZoneId, shieldZone: { planType: "Advanced" } })).shieldZoneId;
    const rateLimit = await client.shield.createRateLimit({
      shieldZoneId,
      ruleName: "login",
      ruleDescription: "made elsewhere",
      ruleConfiguration: { actionType: 1, variableTypes: { REQUEST_URI: "" }, operatorType: 0, value: "/login", severityType: 0, transformationTypes: [], requestCount: 10, timeframe: 60, blockTime: 300 },
    });
    const wafRule = await client.wafRules.create({ shieldZoneId, ruleName: "admin", ruleConfiguration: { actionType: "Block", variableTypes: { REQUEST_URI: "" }, operatorType: "BEGINSWITH", value: "/admin" } });
    const accessList = await client.accessLists.create(shieldZoneId, { name: "countries", type: "Country", content: "RU\nKP" });
    const storageZoneId = (await client.storageZones.createStorageZone({ Name: "children-files", Region: "DE" })).Id;
    await client.pullZones.updatePullZone(pullZoneId, { OptimizerClasses: [{ Name: "thumb", Properties: { width: "640" } }] });
    await client.storage.putFile(await client.storage.access(storageZoneId), "docs/readme.txt", Buffer.from(FILE_TEXT), { checksum: sha256(FILE_TEXT) });
    fileId = `${storageZoneId}/docs/readme.txt`;
    const library = await client.videoLibraries.create({ Name: "children-videos" });
    const collection = await client.stream.createCollection(library.Id, "trailers");
    const video = await client.stream.createVideo(library.Id, { title: "intro" });
    const registryId = await client.containers.addRegistry({ displayName: "images", type: "gitHub", passwordCredentials: { userName: "someone", password: "their-token" } });
    readOnly.push(
      { type: "EdgeScript", name: "script", importId: String(emu.fixtures.scriptId), storedId: String(emu.fixtures.scriptId) },
      { type: "ContainerRegistry", name: "registry", importId: String(registryId), storedId: String(registryId) },
      { type: "StreamVideo", name: "video", importId: `${library.Id}/${video.guid}`, storedId: `${library.Id}/${video.guid}` },
      { type: "VideoThumbnail", name: "thumbnail", importId: `${library.Id}/${video.guid}`, storedId: `${library.Id}/${video.guid}` },
    );
    scriptId = Number(emu.fixtures.scriptId);
    secretId = (await client.edgeScripts.addSecret(scriptId, { Name: "TOKEN", Secret: "made elsewhere" })).Id;
    const variable = await client.edgeScripts.addVariable(scriptId, { Name: "GREETING", Required: false, DefaultValue: "hello" });
    imported.push(
      { type: "DnsRecord", name: "record", importId: `${dnsZoneId}/${record.Id}`, storedId: String(record.Id) },
      { type: "PullZoneHostname", name: "hostname", importId: `${pullZoneId}/cdn.children.example`, storedId: String(hostname.Id) },
      { type: "EdgeRule", name: "rule", importId: `${pullZoneId}/${edgeRule.Guid}`, storedId: edgeRule.Guid },
      { type: "RateLimitRule", name: "limit", importId: `${shieldZoneId}/${rateLimit.id}`, storedId: String(rateLimit.id) },
      { type: "ScriptVariable", name: "variable", importId: `${scriptId}/${variable.Id}`, storedId: String(variable.Id) },
      { type: "ShieldZone", name: "shield", importId: String(shieldZoneId), storedId: String(shieldZoneId) },
      { type: "WafRule", name: "waf", importId: `${shieldZoneId}/${wafRule.id}`, storedId: String(wafRule.id) },
      { type: "AccessList", name: "list", importId: `${shieldZoneId}/${accessList.id}`, storedId: String(accessList.id) },
      { type: "StorageZone", name: "files", importId: String(storageZoneId), storedId: String(storageZoneId) },
      { type: "VideoLibrary", name: "videos", importId: String(library.Id), storedId: String(library.Id) },
      { type: "OptimizerClass", name: "thumb", importId: `${pullZoneId}/thumb`, storedId: `${pullZoneId}/thumb` },
      { type: "StreamCollection", name: "trailers", importId: `${library.Id}/${collection.guid}`, storedId: `${library.Id}/${collection.guid}` },
    );
    const config = stackConfigFor(emu.url, emu.fixtures.accessKey);
    stack = await EngineStack.start(emu, compiledProject("plugin-import-children", PROJECT, "tests/plugin/programs/importedChildren.js"), config, ["bunnynet:apiKey"]);
    installPlugin(stack.cli);
  });
  after(async () => {
    await stack?.dispose();
    await emu?.stop();
  });

  it("imports each by its composite id, writing nothing, and stores the object's own id", async () => {
    await emu.markRequests();
    for (const { type, name, importId } of imported) {
      await stack.cli.run(["import", `bunnynet:index:${type}`, name, importId, "--yes", "--generate-code=false"], true);
    }
    assert.deepEqual((await emu.requests()).filter((r) => r.method !== "GET"), []);
    for (const { name, storedId } of imported) assert.equal((await stack.resource(name)).id, storedId, name);
    const recordInputs = (await stack.resource("record")).inputs ?? {};
    assert.deepEqual([recordInputs.dnsZoneId, recordInputs.name, recordInputs.value], [dnsZoneId, "www", "192.0.2.10"]);
  });

  it("a program declaring the imported inputs previews with no change, and its up writes nothing", async () => {
    const declared = await Promise.all(
      imported.map(async ({ type, name }) => ({
        type,
        name,
        inputs: Object.fromEntries(Object.entries((await stack.resource(name)).inputs ?? {}).filter(([k]) => !NOT_OF_THE_OBJECT.includes(k))),
      })),
    );
    await stack.setConfig({ [`${PROJECT}:declared`]: JSON.stringify(declared) });
    await stack.cli.run(["preview", "--expect-no-changes"], true);
    await emu.markRequests();
    await stack.cli.run(["up", "--yes", "--skip-preview", "--expect-no-changes"], true);
    assert.deepEqual((await emu.requests()).filter((r) => r.method !== "GET"), []);
  });

  it("what an import cannot read (a secret's value, a file's content) is the only change the next up makes", async () => {
    await stack.cli.run(["import", "bunnynet:index:ScriptSecret", "secret", `${scriptId}/${secretId}`, "--yes", "--generate-code=false"], true);
    await stack.cli.run(["import", "bunnynet:index:StorageFile", "file", fileId, "--yes", "--generate-code=false"], true);
    const secret = await stack.resource("secret");
    const file = await stack.resource("file");
    assert.deepEqual([secret.id, file.id], [String(secretId), fileId]);
    assert.deepEqual([secret.inputs?.value, file.inputs?.content, file.inputs?.checksum], [undefined, undefined, sha256(FILE_TEXT)], "no value or content is read; the checksum is");
    const declared = JSON.parse((await stack.cli.run(["config", "get", `${PROJECT}:declared`], true)).trim()) as unknown[];
    const inputsOf = (r: typeof secret) => Object.fromEntries(Object.entries(r.inputs ?? {}).filter(([k]) => !NOT_OF_THE_OBJECT.includes(k)));
    declared.push({ type: "ScriptSecret", name: "secret", inputs: { ...inputsOf(secret), value: "the program's" } });
    declared.push({ type: "StorageFile", name: "file", inputs: { ...inputsOf(file), checksum: undefined, content: FILE_TEXT } });
    await stack.setConfig({ [`${PROJECT}:declared`]: JSON.stringify(declared) });
    const changed = (await previewSteps(stack.cli)).filter((step) => step.op !== "same");
    assert.deepEqual(
      changed.map((step) => [step.op, step.urn.split("::").pop(), step.diffReasons]).sort((a, b) => String(a[1]).localeCompare(String(b[1]))),
      [
        ["update", "file", ["content"]],
        ["update", "secret", ["value"]],
      ],
    );
    await stack.cli.run(["up", "--yes", "--skip-preview"], true);
    await stack.cli.run(["preview", "--expect-no-changes"], true);
  });

  it("an edge script, a container registry, a video and its thumbnail import by id, without what the API does not answer", async () => {
    for (const { type, name, importId } of readOnly) {
      await stack.cli.run(["import", `bunnynet:index:${type}`, name, importId, "--yes", "--generate-code=false"], true);
    }
    for (const { name, storedId } of readOnly) assert.equal((await stack.resource(name)).id, storedId, name);
    const [script, registry, video, thumbnail] = await Promise.all(readOnly.map(({ name }) => stack.resource(name)));
    assert.deepEqual([script.inputs?.code, registry.inputs?.password, video.inputs?.source, thumbnail.inputs?.file ?? thumbnail.inputs?.frame ?? thumbnail.inputs?.url], [undefined, undefined, undefined, undefined]);
    assert.deepEqual([registry.inputs?.username, video.inputs?.title], ["someone", "intro"]);
    // Out of the state again (the objects stay): the program of the other tests does not declare them.
    for (const r of [script, registry, video, thumbnail]) await stack.cli.run(["state", "delete", r.urn, "--force", "--yes"], true);
  });

  it("a malformed id is refused naming the expected format; a type with nothing to import says why", async () => {
    const refusal = async (type: string, id: string) => {
      const run = await stack.cli.attempt(["import", `bunnynet:index:${type}`, `bad-${type.toLowerCase()}`, id, "--yes", "--generate-code=false"]);
      assert.notEqual(run.status, 0, `${type} ${id} was imported`);
      return run.stdout + run.stderr;
    };
    assert.match(await refusal("DnsRecord", "12"), /bunnynet:index:DnsRecord ids are <dnsZoneId>\/<recordId>, got "12"/);
    assert.match(await refusal("ScriptVariable", "x/3"), /bunnynet:index:ScriptVariable ids are <scriptId>\/<variableId>, got "x\/3": <scriptId> must be a positive whole number/);
    assert.match(await refusal("CachePurge", "1"), /bunnynet:index:CachePurge cannot be imported or read with get: a purge is an action/);
    // Nothing was written to the state by a refused import.
    assert.equal((await stack.resources()).filter((r) => r.urn.includes("::bad-")).length, 0);
  });

  it("get reads a record by its composite id, storing the record's own id", async () => {
    await stack.setConfig({ [`${PROJECT}:read`]: JSON.stringify([{ type: "DnsRecord", name: "record-read", id: `${dnsZoneId}/${record.Id}` }]) });
    await stack.cli.run(["up", "--yes", "--skip-preview"], true);
    const read = ((await stack.cli.outputs()).readOutputs as Record<string, { id: string; value: string; recordId: number }>)["record-read"];
    // The program's `id` is the one it gave (the Node.js SDK resolves a read's id "supplied as input":
    // sdk/nodejs/runtime/resource.ts, readResource); the state holds the record's own.
    assert.deepEqual(read, { id: `${dnsZoneId}/${record.Id}`, value: "192.0.2.10", recordId: record.Id });
    assert.equal((await stack.resource("record-read")).id, String(record.Id));
    // A refresh reads it again by the stored id and state.
    await stack.cli.run(["refresh", "--yes", "--expect-no-changes"], true);
  });
});
