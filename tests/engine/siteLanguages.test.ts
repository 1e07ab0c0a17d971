import assert from "node:assert/strict";
import { join, resolve } from "node:path";
import { documentedGet } from "../support/documentedGet";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { EngineStack } from "../support/engineCycle";
import { type Language, languageUnavailable, pathWith, pythonVirtualenv } from "../support/languages";
import { compiledProject } from "../support/pulumiCli";
import { SITE_PROJECT, SITE_SECRET_CONFIG, siteConfig } from "../support/site";
import { installPlugin } from "../plugin/pluginSupport";

/**
 * examples/site-python, examples/site-go and examples/site-yaml — the site of examples/site written with the plugin's
 * SDKs — run in place by the real CLI and their language hosts (tools/pulumi-cli/build.sh), with the provider plugin
 * installed from its tarball, against the emulator: `up` creates every resource, an unchanged `up` changes nothing and
 * sends no request, `refresh` finds no drift, `destroy` leaves nothing in the state nor in the emulator. Their default
 * `publicFolder` and `mediaFolder` (examples/site's, by relative path) are what runs. Then the TypeScript site on
 * dynamic resources and the Python one on the plugin must send the emulator the same requests for the same `up`.
 *
 * Engine behaviours relied on are those of tests/support/engineCycle.ts (cited there); the engine starts provider
 * plugins in the project's folder (pulumi/pulumi v3.259.0 sdk/go/common/resource/plugin/plugin.go `execPlugin`, `pwd`
 * from the plugin context's `Pwd`), so a relative path in a program is relative to its Pulumi.yaml in every language.
 */

const REPO_ROOT = resolve(__dirname, "..", "..", "..");

/** Every resource of the site, by name (as tests/engine/site.test.ts lists them). */
const RESOURCES = ["zone", "files", "content", "cdn", "www-record", "www", "shield", "api-limit", "admin-only-office", "blocked-countries", "redirect-to-www", "security-headers", "edge", "greeting", "api-token", "videos", "intro", "poster", "purge"];
const all = (op: string) => Object.fromEntries(RESOURCES.map((name) => [name, op]));

const SITES: Record<Language, { project: string; env?: () => NodeJS.ProcessEnv }> = {
  // The Python host runs the first python3 on PATH: a virtualenv with `pulumi` and the SDK of sdk/python, as the
  // example's README installs them.
  python: { project: "bunnynet-site-python", env: () => ({ PATH: pathWith(pythonVirtualenv([join(REPO_ROOT, "sdk", "python")])) }) },
  go: { project: "bunnynet-site-go" },
  yaml: { project: "bunnynet-site-yaml" },
};

/** A request as the comparison counts it: its method and route (ids as `:id`). */
const requestLine = (r: { method: string; route: string }) => `${r.method} ${r.route}`;

/** The requests of each language's first `up` (the Python one is compared with the TypeScript site's). */
const upLogs: Partial<Record<Language, { method: string; route: string }[]>> = {};

/**
 * examples/site's config for `project`: the key, the emulator's URLs, the domain, prefix and token; the folders left
 * to the program's defaults.
 */
function configOf(project: string, emu: TestEmulator): Record<string, string> {
  const config = siteConfig(emu);
  delete config[`${SITE_PROJECT}:publicFolder`];
  delete config[`${SITE_PROJECT}:mediaFolder`];
  return Object.fromEntries(Object.entries(config).map(([key, value]) => [key.replace(`${SITE_PROJECT}:`, `${project}:`), value]));
}

/** Where the emulator holds the site's objects (the ids from the state): undefined for each once they are gone. */
async function siteObjects(emu: TestEmulator, ids: Record<string, string>): Promise<Record<string, unknown>> {
  const paths = [`/dnszone/${ids.zone}`, `/storagezone/${ids.files}`, `/pullzone/${ids.cdn}`, `/videolibrary/${ids.videos}`, `/compute/script/${ids.edge}`];
  return Object.fromEntries(await Promise.all(paths.map(async (path) => [path, await documentedGet(emu, path)])));
}

for (const language of Object.keys(SITES) as Language[]) {
  const { project, env } = SITES[language];

  describe(`engine: examples/site-${language} through the plugin`, function () {
    this.timeout(900_000);
    let emu: TestEmulator;
    let stack: EngineStack;
    let ids: Record<string, string> = {};

    before(async function () {
      const reason = languageUnavailable(language);
      if (reason) {
        console.log(`      skipped: ${reason}`);
        this.skip();
      }
      emu = await startEmulator();
      stack = await EngineStack.start(emu, join(REPO_ROOT, "examples", `site-${language}`), configOf(project, emu), SITE_SECRET_CONFIG.map((k) => k.replace(`${SITE_PROJECT}:`, `${project}:`)), `site-${language}-${process.pid}`, env?.());
      installPlugin(stack.cli);
    });
    after(async () => {
      await stack?.dispose();
      await emu?.stop();
    });

    it("one up creates the whole site", async () => {
      await emu.markRequests();
      assert.deepEqual(await stack.up(), all("create"));
      upLogs[language] = await emu.requests();
      ids = Object.fromEntries((await stack.resources()).map((r) => [r.urn.split("::").pop(), String(r.id)]));
      const www = ((await documentedGet(emu, `/pullzone/${ids.cdn}`))?.Hostnames as Record<string, unknown>[]).find((h) => h.Value === "www.site.example");
      assert.deepEqual([www?.HasCertificate, www?.ForceSSL], [true, true]);
      assert.equal((await documentedGet(emu, `/videolibrary/${ids.videos}`))?.VideoCount, 1);
      const out = await stack.cli.outputs();
      assert.equal(out.siteFiles, 3);
      assert.equal(out.url, "https://www.site.example");
    });

    it("an unchanged up changes nothing and makes no API call; refresh finds no drift", async () => {
      await stack.expectUnchangedUp(RESOURCES);
      await stack.expectNoDrift(RESOURCES);
    });

    it("destroy leaves nothing, in the state or in the emulator", async () => {
      assert.deepEqual(await stack.destroy(), all("delete"));
      assert.deepEqual(await stack.resources(), []);
      const left = Object.entries(await siteObjects(emu, ids)).filter(([, object]) => object !== undefined);
      assert.deepEqual(left.map(([path]) => path), []);
    });
  });
}

/**
 * A request log as two surfaces of the same program must match it: every write (a request other than GET) as often as
 * it was sent, and the set of distinct reads. Reads are compared as a set, not counted: how many GETs of a parent an
 * `up` sends depends on timing, in either surface — concurrent identical GETs share one request, a parent read is
 * cached until the next write of its API surface, and a read waits for writes in flight (provider/http/sharedReads.ts)
 * — so two edge rules of one pull zone read it once or twice as their operations happen to overlap; and a video's
 * status is polled until it plays. The order is canonical (sorted): the engine runs independent resources at once.
 */
function canonicalLog(requests: { method: string; route: string }[]): { writes: string[]; reads: string[] } {
  const lines = requests.map(requestLine);
  return { writes: lines.filter((l) => !l.startsWith("GET ")).sort(), reads: [...new Set(lines.filter((l) => l.startsWith("GET ")))].sort() };
}

/**
 * The same `up` of the same site through the TypeScript dynamic resources (examples/site, as tests/engine/site.test.ts
 * runs it) and through the Python SDK and the plugin: the same writes, each as often, and the same reads
 * (canonicalLog says what is compared and why).
 */
describe("engine: examples/site and examples/site-python send the emulator the same requests", function () {
  this.timeout(600_000);
  let emu: TestEmulator;
  let stack: EngineStack;

  before(async function () {
    const reason = languageUnavailable("python");
    if (reason) {
      console.log(`      skipped: ${reason}`);
      this.skip();
    }
    emu = await startEmulator();
    stack = await EngineStack.start(emu, compiledProject("engine-site-compare", SITE_PROJECT, "examples/site/index.js"), siteConfig(emu), SITE_SECRET_CONFIG, `site-compare-${process.pid}`);
  });
  after(async () => {
    await stack?.destroy().catch(() => undefined);
    await stack?.dispose();
    await emu?.stop();
  });

  it("one up of each makes the same writes and the same reads", async function () {
    if (!upLogs.python) this.skip(); // the Python site's up did not run (its own test says why)
    await emu.markRequests();
    assert.deepEqual(await stack.up(), all("create"));
    const typescript = canonicalLog(await emu.requests());
    const python = canonicalLog(upLogs.python);
    assert.ok(python.writes.length >= RESOURCES.length, `a write at least per resource, not ${python.writes.length}`);
    assert.deepEqual(python.writes, typescript.writes);
    assert.deepEqual(python.reads, typescript.reads);
  });
});
