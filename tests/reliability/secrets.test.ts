import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import * as pulumi from "@pulumi/pulumi";
import * as bunnynet from "bunnynet-pulumi/dist/index.js";
import { registeredTypes } from "bunnynet-pulumi/dist/pulumi/index.js";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { CheckFailedError, CommandFailedError, ProgramHarness, type StoredResource } from "../support/programHarness";
import { ProviderHost, providerText } from "../support/providerHost";
import { QUICKSTART_PROJECT, QUICKSTART_SECRET_CONFIG, QUICKSTART_SECRET_KEYS, quickstartConfig } from "../support/quickstart";
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
    config = await quickstartConfig(emu);
    const f = emu.fixtures;
    secrets = Object.entries(f)
      .filter(([k]) => /key$/i.test(k))
      .map(([name, value]) => ({ name, value: String(value) }));
    for await (const key of emu.client().apiKeys.list()) secrets.push({ name: `API key ${key.Id}`, value: key.Key ?? "" });
    // The api hostname's private key (each line of its body: JSON escapes the line breaks) and the script secret's value.
    for (const key of QUICKSTART_SECRET_KEYS) {
      const value = config[key];
      const lines = value.includes("PRIVATE KEY") ? value.split("\n").filter((l) => l.length > 0 && !l.startsWith("-----")) : [value];
      lines.forEach((line, i) => secrets.push({ name: `${key} (line ${i + 1})`, value: line }));
    }
    assert.ok(secrets.filter((s) => s.name.includes("apiCertificateKey")).length >= 2);
    assert.ok(secrets.some((s) => s.name === "otherVideoLibraryKey") && secrets.some((s) => s.name === "videoLibraryKey") && secrets.length > 12);
  });
  after(async () => {
    await host?.stop();
    await emu?.stop();
  });

  const f = () => emu.fixtures;
  const harnessFor = () => new ProgramHarness({ project: QUICKSTART_PROJECT, config, secretConfig: QUICKSTART_SECRET_CONFIG, providerHost: host });

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

  /**
   * Runs that must fail: a variable that exists already (adoption refused), a thumbnail with another library's
   * key (401), a secret with a variable's name (given the signing key as its value), and a hostname whose custom
   * certificate (with its key) does not cover it (refused at check).
   */
  const failing = () => {
    new bunnynet.ScriptVariable("taken", { scriptId: Number(f().scriptId), name: "QUICKSTART_API_BASE" });
    new bunnynet.ScriptSecret("named-like-a-variable", { scriptId: Number(f().scriptId), name: "QUICKSTART_API_BASE", value: config[`${QUICKSTART_PROJECT}:signingKey`] });
    new bunnynet.PullZoneHostname("wrong-certificate", {
      pullZoneId: Number(f().pullZoneId),
      hostname: "wrong.quickstart.example",
      tls: { certificate: config[`${QUICKSTART_PROJECT}:apiCertificate`], privateKey: config[`${QUICKSTART_PROJECT}:apiCertificateKey`] },
    });
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
    assert.equal(harness.resources().length, 8);
    harness.setConfig({ ...config, [`${QUICKSTART_PROJECT}:edition`]: "second" }, QUICKSTART_SECRET_CONFIG);
    const changed = await harness.up(everything);
    assert.equal(changed.steps.filter((s) => s.op === "update").length, 4);
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
    assert.match(message, /QUICKSTART_API_BASE is a variable of edge script \d+: a secret cannot have the name of a variable/);
    assert.match(message, /tls\.certificate.*does not cover wrong\.quickstart\.example/);
    assert.equal(other.resources().length, 0);

    await harness.destroy();
    assert.equal(harness.resources().length, 0);
  });

  it("the thumbnail's library key, the certificate's private key and the script secret are stored only as secrets (encrypted by the engine)", () => {
    const poster = stored.find((r) => r.name === "other-poster")!;
    assert.equal(poster.inputs.libraryKey, f().otherVideoLibraryKey);
    assert.ok(poster.secretKeys.includes("libraryKey"));
    const api = stored.find((r) => r.name === "api")!;
    assert.equal((api.inputs.tls as { privateKey: string }).privateKey, config[`${QUICKSTART_PROJECT}:apiCertificateKey`]);
    assert.ok(api.secretKeys.includes("tls"));
    const signing = stored.find((r) => r.name === "signing-key")!;
    assert.equal(signing.outputs.value, config[`${QUICKSTART_PROJECT}:signingKey`]);
    assert.ok(signing.secretKeys.includes("value"));
  });

  /** Each secret, whole and its first half (a truncated key is a leak too). */
  function assertNoSecretIn(what: string, text: string) {
    for (const { name, value } of secrets) {
      assert.ok(!text.includes(value), `${name} in ${what}`);
      assert.ok(!text.includes(value.slice(0, Math.ceil(value.length / 2))), `half of ${name} in ${what}`);
    }
  }

  it("is in no provider text of any of the package's types", async () => {
    const types = ["PullZoneHostname", "RateLimitRule", "ScriptSecret", "ScriptVariable", "VideoThumbnail", "VolumeInstanceDeletion", "StorageZone", "PullZone"];
    // Other test files register test-only types in the same process: the package's own must all be there.
    assert.deepEqual(types.filter((t) => !registeredTypes().includes(t)), []);
    for (const type of types) assertNoSecretIn(`the provider text of ${type}`, await providerText(type));
    for (const r of stored) assertNoSecretIn(`the stored provider text of ${r.name}`, r.providerText);
  });

  it("is in no stored inputs or outputs, except under the properties the engine stores as secrets", () => {
    assert.equal(stored.length, 8);
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

  it("is in no entry of the emulator's request log (no secret is ever echoed in a URL)", () => {
    const log = emu.emulator.ctx.requestLog.since(0);
    assert.ok(log.some((e) => e.route === "/compute/script/:id/secrets") && log.some((e) => e.route === "/pullzone/:id/addCertificate"));
    assertNoSecretIn("the emulator's request log", JSON.stringify(log));
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

  describe("secrets the program gives as inputs", () => {
    const programSecret = () => `sk_live_${randomBytes(16).toString("hex")}`;
    /** The engine's lines for a run refused at check (rendered as the engine renders them, values included). */
    const refusedLines = async (program: () => unknown): Promise<string> => {
      await emu.markRequests();
      const error = await harnessFor()
        .up(program)
        .then(
          () => assert.fail("the run was refused"),
          (e: unknown) => e,
        );
      assert.ok(error instanceof CommandFailedError && error.errors[0] instanceof CheckFailedError, String(error));
      assert.deepEqual(await emu.requests(), [], "refused before any API call");
      return error.message;
    };

    it("a refused secret value is never printed: the failure names the property in its reason only", async () => {
      const tooLong = programSecret().padEnd(4097, "x");
      const message = await refusedLines(() => new bunnynet.ScriptVariable("too-long", { scriptId: Number(f().scriptId), name: "TOO_LONG", defaultValue: pulumi.secret(tooLong) }));
      assert.match(message, /ScriptVariable resource 'too-long' has a problem: defaultValue: Too big/);
      assert.ok(!message.includes(tooLong.slice(0, 20)), message);
    });

    it("a misspelt key holding a secret is never printed", async () => {
      const value = programSecret();
      const misspelt = { scriptId: Number(f().scriptId), name: "MISSPELT", defaultVaule: pulumi.secret(value) } as bunnynet.ScriptVariableArgs;
      const message = await refusedLines(() => new bunnynet.ScriptVariable("misspelt", misspelt));
      assert.match(message, /has a problem: defaultVaule: unknown property/);
      assert.ok(!message.includes(value), message);
    });

    it("(the harness renders as the engine does: a named property's value is printed, secret or not)", async () => {
      const value = programSecret().padEnd(257, "x");
      const message = await refusedLines(() => new bunnynet.ScriptVariable("named", { scriptId: Number(f().scriptId), name: pulumi.secret(value) }));
      assert.ok(message.includes(`property 'name' value {&{{${value}}}} has a problem`), message);
    });

    it("no derived output carries a secret input: a signed thumbnail URL is stored only under its secret key", async () => {
      const token = programSecret();
      const signedUrl = `https://images.example.com/poster.png?token=${token}`;
      const harness = harnessFor();
      const run = await harness.up(() => {
        const thumbnail = new bunnynet.VideoThumbnail("signed", { libraryId: Number(f().videoLibraryId), videoId: String(f().videoId), url: pulumi.secret(signedUrl) });
        return { fingerprint: thumbnail.fingerprint, id: thumbnail.id, fileName: thumbnail.thumbnailFileName };
      });
      const thumbnail = harness.resource("pulumi-nodejs:dynamic/bunnynet:VideoThumbnail", "signed")!;
      assert.ok(thumbnail.secretKeys.includes("url"));
      assert.equal(thumbnail.outputs.url, signedUrl, "kept, under the secret key");
      assert.match(String(thumbnail.outputs.fingerprint), /^url:sha256:[0-9a-f]{64}$/);
      const withoutSecretKeys = (props: Record<string, unknown>) => JSON.stringify({ ...props, url: undefined });
      for (const text of [withoutSecretKeys(thumbnail.inputs), withoutSecretKeys(thumbnail.outputs), thumbnail.id, JSON.stringify(run.outputs)]) {
        assert.ok(!text.includes(token), text);
      }
      // Nor does the emulator's request log: the URL went as a query value, which the log keeps without its own query.
      const logged = emu.emulator.ctx.requestLog.since(0).filter((r) => r.route.endsWith("/thumbnail"));
      assert.ok(logged.some((r) => r.url.includes("images.example.com")), JSON.stringify(logged));
      assert.ok(!JSON.stringify(logged).includes(token), JSON.stringify(logged));
      await harness.destroy();
    });
  });
});
