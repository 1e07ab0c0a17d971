import assert from "node:assert/strict";
import * as bunnynet from "../../provider";
import { registeredTypes } from "../../provider/pulumi";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { ProgramHarness, type StoredResource } from "../support/programHarness";
import { ProviderHost, providerText } from "../support/providerHost";
import { QUICKSTART_PROJECT, quickstartConfig } from "../support/quickstart";
import { quickstart } from "../../examples/quickstart/program";

/** A debug line of the transport, as the provider host writes it to stderr. */
const DEBUG_LINE = /^\[bunnynet\] (GET|POST|PUT|PATCH|DELETE) \S+ → \S+ in \d+ ms \(attempt \d+\)$/gm;

/**
 * With debug logging on in the provider process, a deploy, change, refresh and destroy of every resource (one video
 * thumbnail with an explicit library key, one with the key the provider looks up), and runs that fail (an
 * adoption refusal, a library key the API refuses): no key appears in anything Pulumi stores, shows or logs.
 */
describe("reliability: no key in provider texts, state, outputs, errors or debug logs", function () {
  this.timeout(60_000);
  let emu: TestEmulator;
  let host: ProviderHost;
  let config: Record<string, string>;
  /** Every secret the run handles: the account's API keys (one is the access key) and every library key. */
  let secrets: { name: string; value: string }[];
  const stored: StoredResource[] = [];
  const outputs: unknown[] = [];
  const errors: string[] = [];

  before(async () => {
    emu = await startEmulator();
    host = await ProviderHost.start({ project: QUICKSTART_PROJECT, env: { BUNNYNET_DEBUG: "1" } });
    config = quickstartConfig(emu);
    const f = emu.fixtures;
    secrets = Object.entries(f)
      .filter(([k]) => /key$/i.test(k))
      .map(([name, value]) => ({ name, value: String(value) }));
    for await (const key of emu.client().apiKeys.list()) secrets.push({ name: `API key ${key.Id}`, value: key.Key ?? "" });
    assert.ok(secrets.some((s) => s.name === "otherVideoLibraryKey") && secrets.some((s) => s.name === "videoLibraryKey") && secrets.length > 12);
  });
  after(async () => {
    await host?.stop();
    await emu?.stop();
  });

  const f = () => emu.fixtures;
  const harnessFor = () => new ProgramHarness({ project: QUICKSTART_PROJECT, config, secretConfig: ["bunnynet:apiKey"], providerHost: host });

  /** The quickstart (every resource; its thumbnail's library key is looked up by the provider), plus a thumbnail given its library's key. */
  const everything = () => ({
    ...quickstart(),
    otherPosterFile: new bunnynet.VideoThumbnail("other-poster", {
      libraryId: Number(f().otherVideoLibraryId),
      videoId: String(f().otherVideoId),
      frame: 3,
      libraryKey: String(f().otherVideoLibraryKey),
    }).thumbnailFileName,
  });

  /** Runs that must fail: a variable that exists already (adoption refused) and a thumbnail with another library's key (401). */
  const failing = () => {
    new bunnynet.ScriptVariable("taken", { scriptId: Number(f().scriptId), name: "QUICKSTART_API_BASE" });
    new bunnynet.VideoThumbnail("wrong-key", {
      libraryId: Number(f().otherVideoLibraryId),
      videoId: String(f().otherVideoId),
      frame: 1,
      libraryKey: String(f().videoLibraryKey),
    });
    return {};
  };

  /** The message of an error and of everything it aggregates. */
  const errorText = (e: unknown): string => [String((e as Error).message), ...((e as AggregateError).errors ?? []).map(errorText)].join("\n");

  it("deploys, changes, refreshes and destroys every resource, and the failing runs fail for the expected reasons", async () => {
    const harness = harnessFor();
    outputs.push((await harness.up(everything)).outputs);
    assert.equal(harness.resources().length, 7);
    harness.setConfig({ ...config, [`${QUICKSTART_PROJECT}:edition`]: "second" }, ["bunnynet:apiKey"]);
    const changed = await harness.up(everything);
    assert.equal(changed.steps.filter((s) => s.op === "update").length, 3);
    outputs.push(changed.outputs);
    await harness.refresh();
    stored.push(...harness.resources().map((r) => structuredClone(r)));

    const other = harnessFor();
    await assert.rejects(other.up(failing), (e: unknown) => {
      errors.push(errorText(e));
      return true;
    });
    const [message] = errors;
    assert.match(message, /ScriptVariable scriptId=\d+, name="QUICKSTART_API_BASE" already exists .* set adoptExisting: true/);
    assert.match(message, /POST \/library\/\d+\/videos\/[\w-]+\/thumbnail answered 401/);
    assert.equal(other.resources().length, 0);

    await harness.destroy();
    assert.equal(harness.resources().length, 0);
  });

  it("the thumbnail's library key is stored only as a secret (encrypted by the engine)", () => {
    const poster = stored.find((r) => r.name === "other-poster")!;
    assert.equal(poster.inputs.libraryKey, f().otherVideoLibraryKey);
    assert.ok(poster.secretKeys.includes("libraryKey"));
  });

  /** Each secret, whole and its first half (a truncated key is a leak too). */
  function assertNoSecretIn(what: string, text: string) {
    for (const { name, value } of secrets) {
      assert.ok(!text.includes(value), `${name} in ${what}`);
      assert.ok(!text.includes(value.slice(0, Math.ceil(value.length / 2))), `half of ${name} in ${what}`);
    }
  }

  it("is in no provider text of any of the package's types", async () => {
    const types = ["PullZoneHostname", "RateLimitRule", "ScriptVariable", "VideoThumbnail", "VolumeInstanceDeletion"];
    // Other test files register test-only types in the same process: the package's own must all be there.
    assert.deepEqual(types.filter((t) => !registeredTypes().includes(t)), []);
    for (const type of types) assertNoSecretIn(`the provider text of ${type}`, await providerText(type));
    for (const r of stored) assertNoSecretIn(`the stored provider text of ${r.name}`, r.providerText);
  });

  it("is in no stored inputs or outputs, except under the properties the engine stores as secrets", () => {
    assert.equal(stored.length, 7);
    const withoutSecrets = (props: Record<string, unknown>, secretKeys: string[]) => Object.fromEntries(Object.entries(props).filter(([k]) => !secretKeys.includes(k)));
    for (const r of stored) {
      assertNoSecretIn(`the inputs of ${r.name}`, JSON.stringify(withoutSecrets(r.inputs, r.secretKeys)));
      assertNoSecretIn(`the outputs of ${r.name}`, JSON.stringify(withoutSecrets(r.outputs, r.secretKeys)));
    }
  });

  it("is in no stack output and no error message", () => {
    assert.equal(outputs.length, 2);
    assertNoSecretIn("the stack outputs", JSON.stringify(outputs));
    assert.equal(errors.length, 1);
    assertNoSecretIn("the error messages", errors.join("\n"));
  });

  it("is in no line the provider host wrote, and debug logging did write lines (for every method and the failures)", () => {
    const logs = host.logs();
    assertNoSecretIn("the provider host's output", logs);
    const lines = logs.match(DEBUG_LINE) ?? [];
    assert.ok(lines.length > 20, `${lines.length} debug lines`);
    for (const method of ["GET", "POST", "PATCH", "DELETE"]) assert.ok(lines.some((l) => l.startsWith(`[bunnynet] ${method} `)), `a ${method} line`);
    assert.ok(lines.some((l) => / → 401 /.test(l)), "the refused call is logged");
    assert.ok(lines.some((l) => /^\[bunnynet\] GET \/videolibrary\/\d+ → 200/.test(l)), "the library key look-up is logged");
  });
});
