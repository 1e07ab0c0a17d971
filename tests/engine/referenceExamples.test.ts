import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { stackConfigFor } from "bunnynet-emulator/testing";
import { NotFoundError } from "bunnynet-pulumi/dist/http/errors.js";
import { SCHEMA } from "../../docs/generate";
import { REFERENCE_EXAMPLES, REFERENCE_LANGUAGES, type ReferenceLanguage, readSchema, tokenName } from "../../docs/reference";
import { documentedGet } from "../support/documentedGet";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { EngineStack, nameOf, skipWithoutCli, type StateResource } from "../support/engineCycle";
import { languageUnavailable, pathWith, pythonVirtualenv } from "../support/languages";
import { installPlugin } from "../plugin/pluginSupport";

/**
 * examples/reference/{typescript,python,go,yaml}: the programs whose regions are the examples of docs/reference/
 * (docs/reference.ts puts each region on its page; tests/docs.test.ts checks every page has one per language). Each
 * runs through the real CLI against the emulator, as a user runs it: `up` creates every resource, an unchanged `up`
 * changes nothing and writes nothing (the lookups read again: they run at every up) and a `preview
 * --expect-no-changes` then plans nothing, `destroy` leaves nothing in the state nor in the emulator. TypeScript runs
 * compiled (`npm run build`) on the dynamic providers; the others through the provider plugin installed from its
 * tarball, each skipped with the reason when its toolchain is missing.
 *
 * VolumeInstanceDeletion deletes an instance of a volume made elsewhere: the emulator's fixture app's attached volume,
 * given to the program in its config as a user gives the ids of theirs.
 *
 * The plugin's programs also read their pull zone with `get`, by the zone's `id` output as it is (no conversion, in
 * Python, Go and YAML): the engine reads it at every `up` (pulumi/pulumi pkg/resource/deploy/step.go, ReadStep.Op:
 * "read") and drops it from the state at `destroy` without deleting anything (DeleteStep.Op of an external resource:
 * "discard").
 */

const REPO_ROOT = resolve(__dirname, "..", "..", "..");

/** Every resource type of the package (`DnsZone`): each program declares one of each at least. */
const RESOURCE_TYPES = Object.keys(readSchema(SCHEMA).resources).map(tokenName);

/** Undefined once `read` finds nothing (our client's NotFoundError), else what it read. */
const orGone = (read: Promise<unknown>): Promise<unknown> => read.catch((e: unknown) => (e instanceof NotFoundError ? undefined : Promise.reject(e)));

/**
 * What the emulator holds of a top-level object of each type (its children go with it), by the state's id, undefined
 * once it is gone: a documented GET, but for a database and a team member (whose routes take another credential) our
 * client's read.
 */
const HELD: Record<string, (emu: TestEmulator, id: string) => Promise<unknown>> = {
  DnsZone: (emu, id) => documentedGet(emu, `/dnszone/${id}`),
  StorageZone: (emu, id) => documentedGet(emu, `/storagezone/${id}`),
  PullZone: (emu, id) => documentedGet(emu, `/pullzone/${id}`),
  EdgeScript: (emu, id) => documentedGet(emu, `/compute/script/${id}`),
  VideoLibrary: (emu, id) => documentedGet(emu, `/videolibrary/${id}`),
  ContainerApp: (emu, id) => documentedGet(emu, `/mc/apps/${id}`),
  ContainerRegistry: (emu, id) => documentedGet(emu, `/mc/registries/${id}`),
  Database: (emu, id) => orGone(emu.client().databases.getDatabase(id)),
  TeamMember: (emu, id) => orGone(emu.client().teamMembers.getMember(id)),
};

/** A resource's type name (`DnsZone`) from its state type, a plugin token or a dynamic provider's. */
const typeName = (r: StateResource): string => r.type.slice(r.type.lastIndexOf(":") + 1);

/**
 * The project to run for `language`: the example's own folder, but for TypeScript the compiled program's
 * (dist/examples/reference/typescript, with a Pulumi.yaml running index.js and ../assets linked to the sources'), so a
 * relative path in the program means the same in every language.
 */
function projectDir(language: ReferenceLanguage): string {
  const source = join(REPO_ROOT, "examples", "reference", language);
  if (language !== "typescript") return source;
  const compiled = join(REPO_ROOT, "dist", "examples", "reference", "typescript");
  if (!existsSync(join(compiled, "index.js"))) throw new Error(`${compiled}/index.js does not exist: build first (npm run build)`);
  writeFileSync(join(compiled, "Pulumi.yaml"), `name: ${REFERENCE_EXAMPLES.typescript.project}\nruntime:\n  name: nodejs\n  options:\n    typescript: false\nmain: index.js\n`);
  const assets = join(compiled, "..", "assets");
  mkdirSync(join(compiled, ".."), { recursive: true });
  if (!existsSync(assets)) symlinkSync(join(REPO_ROOT, "examples", "reference", "assets"), assets);
  return compiled;
}

/** The resources a program reads with `get` (the TypeScript package's dynamic resources have no get). */
const readsOf = (language: ReferenceLanguage): string[] => (language === "typescript" ? [] : ["cdn-read"]);

/** Why `language`'s program cannot run here, or undefined. */
function unavailable(language: ReferenceLanguage): string | undefined {
  return language === "typescript" ? undefined : languageUnavailable(language);
}

for (const language of REFERENCE_LANGUAGES) {
  const { project } = REFERENCE_EXAMPLES[language];

  describe(`engine: examples/reference/${language}, the reference pages' examples`, function () {
    this.timeout(900_000);
    let emu: TestEmulator;
    let stack: EngineStack;
    let created: StateResource[] = [];

    before(async function () {
      skipWithoutCli(this);
      const reason = unavailable(language);
      if (reason) {
        console.log(`      skipped: ${reason}`);
        this.skip();
      }
      emu = await startEmulator();
      const fixtures = emu.fixtures as Record<string, string | number>;
      const config = {
        ...stackConfigFor(emu.url, String(emu.fixtures.accessKey)),
        [`${project}:appId`]: String(fixtures.appId),
        [`${project}:volumeId`]: String(fixtures.attachedVolumeId),
        [`${project}:instanceId`]: String(fixtures.attachedInstanceId),
        // Secrets with a default: a stack holds them encrypted (the YAML program's config types say `secret: true`).
        [`${project}:apiToken`]: `token-${randomBytes(16).toString("base64url")}`,
        [`${project}:ghcrToken`]: `ghp_${randomBytes(16).toString("hex")}`,
      };
      // The Python host runs the first python3 on PATH: a virtualenv with `pulumi` and the SDK of sdk/python.
      const env = language === "python" ? { PATH: pathWith(pythonVirtualenv([join(REPO_ROOT, "sdk", "python")])) } : {};
      stack = await EngineStack.start(emu, projectDir(language), config, ["bunnynet:apiKey", `${project}:apiToken`, `${project}:ghcrToken`], `reference-${language}-${process.pid}`, env);
      if (language !== "typescript") installPlugin(stack.cli);
    });
    after(async () => {
      await stack?.dispose();
      await emu?.stop();
    });

    const reads = readsOf(language);
    /** The ops other than `expected`, but for the resources read with get, which take `readOp`. */
    const unexpected = (ops: Record<string, string>, expected: string, readOp: string) => Object.entries(ops).filter(([name, op]) => op !== (reads.includes(name) ? readOp : expected));

    it("up creates every resource of the program, one of each type of the package at least, and reads the one got by id", async () => {
      const ops = await stack.up();
      created = (await stack.resources()).filter((r) => !r.type.startsWith("pulumi:providers:"));
      assert.deepEqual(unexpected(ops, "create", "read"), []);
      assert.deepEqual(reads.filter((name) => !(name in ops)), [], "the resources read with get");
      assert.deepEqual(created.map((r) => nameOf(r.urn)).sort(), Object.keys(ops).sort());
      const types = new Set(created.map(typeName));
      assert.deepEqual(RESOURCE_TYPES.filter((t) => !types.has(t)), [], "every resource type is deployed");
      const out = await stack.cli.outputs();
      assert.equal(out.siteFiles, 2);
      assert.equal(out.deletedInstance, String((emu.fixtures as Record<string, unknown>).attachedInstanceId));
      if (reads.length > 0) assert.equal(out.cdnReadName, "example-cdn", "the pull zone read with get by its id output");
      assert.equal(typeof out.forceHttpsRuleId, "string", "the HTTP to HTTPS edge rule");
    });

    it("an unchanged up changes nothing and writes nothing; a preview then plans nothing", async () => {
      await emu.markRequests();
      const ops = await stack.up();
      assert.deepEqual(unexpected(ops, "same", "read"), []);
      assert.deepEqual(Object.keys(ops).sort(), created.map((r) => nameOf(r.urn)).sort());
      assert.deepEqual((await emu.requests()).filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.route}`), []);
      const preview = await stack.cli.attempt(["preview", "--expect-no-changes"]);
      assert.equal(preview.status, 0, `${preview.stdout}${preview.stderr}`);
      // YAML's checker warned "internal error: … not assignable" on every number given to an integer enum
      // (provider/scripts/schemaEnums.mjs says why); names and numbers alike now pass it silently.
      assert.doesNotMatch(`${preview.stdout}${preview.stderr}`, /internal error|not assignable/);
    });

    it("destroy leaves nothing, in the state or in the emulator", async () => {
      const ops = await stack.destroy();
      assert.deepEqual(unexpected(ops, "delete", "discard"), []);
      assert.deepEqual(await stack.resources(), []);
      const objects = created.filter((r) => HELD[typeName(r)]);
      assert.deepEqual([...new Set(objects.map(typeName))].sort(), Object.keys(HELD).sort());
      const left = await Promise.all(objects.map(async (r) => ((await HELD[typeName(r)](emu, String(r.id))) === undefined ? [] : [`${typeName(r)} ${r.id}`])));
      assert.deepEqual(left.flat(), []);
    });
  });
}
