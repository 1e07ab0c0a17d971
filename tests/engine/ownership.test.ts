import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stackConfigFor } from "bunnynet-emulator/dist/testing/stackConfig.js";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { languageUnavailable } from "../support/languages";
import { PulumiCliStack, compiledProject, pulumiCliUnavailable } from "../support/pulumiCli";
import { installPlugin } from "../plugin/pluginSupport";

/**
 * Issue 42, through the real Pulumi CLI: two stacks of one program never share an object, whether they run one after
 * the other or at once, so a `destroy` of one never deletes the other's (provider/pulumi/ownership.ts). The program
 * (tests/engine/programs/sharedParents.ts) declares, under parents a third stack made, one child of each kind that
 * lives inside a shared parent: edge rules (one with a description, one without), a WAF rule, a rate-limit rule, an
 * access list, a DNS record, a hostname, a Shield zone, a script variable and secret, a storage file and a stream
 * collection; and objects of its own named alike in every stack (a pull zone, a storage zone, a DNS zone, a script).
 * Each stack's objects are its state's ids; two stacks share an object when both states hold one id of one type.
 */
const PROJECT = "shared-parents";
const CHILD_TYPES = [
  ...["EdgeRule", "WafRule", "RateLimitRule", "AccessList", "DnsRecord", "PullZoneHostname", "ShieldZone", "ScriptVariable", "ScriptSecret", "StorageFile", "StreamCollection"],
  ...["PullZone", "StorageZone", "DnsZone", "EdgeScript"],
];

describe("pulumi CLI: two stacks of one program never share an object (issue 42)", function () {
  this.timeout(900_000);
  let emu: TestEmulator;
  let work: string;
  let project: string;
  let parents: PulumiCliStack;
  let ids: Record<string, number>;

  before(async function () {
    const reason = pulumiCliUnavailable();
    if (reason) {
      console.log(`      skipped: ${reason}`);
      this.skip();
    }
    emu = await startEmulator();
    work = mkdtempSync(join(tmpdir(), "bunnynet-ownership-"));
    project = compiledProject("ownership", PROJECT, "tests/engine/programs/sharedParents.js");
    parents = stack("parents");
    await parents.init({ ...base(), [`${PROJECT}:parents`]: "true" }, ["bunnynet:apiKey"]);
    await parents.run(["up", "--yes", "--skip-preview"], true);
    ids = (await parents.outputs()).made as Record<string, number>;
  });
  after(async () => {
    await parents?.run(["destroy", "--yes", "--skip-preview"], true).catch(() => undefined);
    await emu?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  const base = () => ({ ...stackConfigFor(emu.url, String(emu.fixtures.accessKey)), [`${PROJECT}:prefix`]: `own${process.pid}` });
  const stack = (name: string, env: NodeJS.ProcessEnv = {}) => new PulumiCliStack(name, join(work, name), project, env);
  async function childStack(name: string): Promise<PulumiCliStack> {
    const s = stack(name);
    await s.init({ ...base(), ...Object.fromEntries(Object.entries(ids).map(([k, v]) => [`${PROJECT}:${k}`, String(v)])) }, ["bunnynet:apiKey"]);
    return s;
  }

  it("one after the other: the second stack takes none of the first's objects, and the first's destroy leaves the second whole", async () => {
    const a = await childStack("staging");
    const b = await childStack("production");
    const upA = await a.attempt(["up", "--yes", "--skip-preview"]);
    assert.equal(upA.status, 0, upA.stdout + upA.stderr);
    const held = await objects(a);
    assert.deepEqual([...new Set([...held].map((o) => o.split(" ")[0]))].sort(), [...CHILD_TYPES].sort(), "stack A holds one of each kind");
    assert.ok(held.size === CHILD_TYPES.length + 1);
    const before = await inventory(emu, ids);

    // B finds each of A's objects where its own would go: none carries B's mark, and the kinds without one take nothing.
    // --continue-on-error: every resource is tried, not only those before the first refusal.
    const upB = await b.attempt(["up", "--yes", "--skip-preview", "--continue-on-error"]);
    const output = upB.stdout + upB.stderr;
    assert.notEqual(upB.status, 0, "B's up stops on the objects it found");
    assert.deepEqual(shared(held, await objects(b)), [], "no object in both states");
    assert.deepEqual(await inventory(emu, ids), before, "B made nothing beside A's objects (every one was refused)");
    assert.match(output, /made by another stack or resource/, "a kind with a mark names the other's mark");
    assert.match(output, /BUNNYNET_ADOPT='urn:pulumi:production::/, "a kind without one prints the command, for B's own resource");
    for (const type of CHILD_TYPES) assert.match(output, new RegExp(`${type} [^\\n]*already exists`), `B's ${type} is refused`);

    // Destroying A deletes A's objects only: B's refresh has nothing deleted under it. B's up then makes its own,
    // except the Shield zone: the API has no delete, so A's destroy left it (on the Basic plan) and B's up stops on it
    // with the command, which takes it over without a program edit.
    await a.run(["destroy", "--yes", "--skip-preview"], true);
    assert.deepEqual(await inventory(emu, ids), [], "A's objects are gone");
    const refreshB = await b.attempt(["refresh", "--yes", "--skip-preview"]);
    assert.equal(refreshB.status, 0, refreshB.stdout + refreshB.stderr);
    assert.doesNotMatch(refreshB.stdout, /\bdeleted\b/);
    const again = await b.attempt(["up", "--yes", "--skip-preview", "--continue-on-error"]);
    assert.notEqual(again.status, 0);
    const command = /BUNNYNET_ADOPT='([^']*)' pulumi up/.exec(again.stdout + again.stderr);
    assert.ok(command && command[1].includes("ShieldZone::guard="), again.stdout + again.stderr);
    await stack("production", { BUNNYNET_ADOPT: command[1] }).run(["up", "--yes", "--skip-preview"], true);
    assert.equal((await objects(b)).size, CHILD_TYPES.length + 1, "B holds its own objects (two edge rules)");
    await b.run(["destroy", "--yes", "--skip-preview"], true);
    assert.deepEqual(await inventory(emu, ids), []);
  });

  it("at once: whatever each up does, no object is in both states, and none is in neither", async () => {
    const c = await childStack("left");
    const d = await childStack("right");
    const up = ["up", "--yes", "--skip-preview", "--continue-on-error"];
    const [upC, upD] = await Promise.all([c.attempt(up), d.attempt(up)]);
    const [heldC, heldD] = [await objects(c), await objects(d)];
    report({ left: upC.status, right: upD.status, leftHolds: heldC.size, rightHolds: heldD.size });
    assert.deepEqual(shared(heldC, heldD), []);
    // Every child object in the emulator is some state's: a create that lost a race deleted its own, or was refused.
    // (Both find the Shield zone the first test's destroy left on the guarded pull zone: both refuse it.)
    const orphans = (await inventory(emu, ids)).filter((o) => !heldC.has(o) && !heldD.has(o));
    assert.deepEqual(orphans, []);
    for (const s of [c, d]) await s.run(["destroy", "--yes", "--skip-preview"], true);
    assert.deepEqual(await inventory(emu, ids), []);
  });
});

/**
 * The same through the provider plugin (YAML), which gets the URN with each Create rather than as an input: a marked
 * kind (edge rule, DNS record) and unmarked ones (hostname, script variable) under parents the TypeScript stack makes.
 */
describe("pulumi CLI, provider plugin (YAML): two stacks of one program never share an object (issue 42)", function () {
  this.timeout(600_000);
  let emu: TestEmulator;
  let work: string;
  let parents: PulumiCliStack;
  let ids: Record<string, number>;

  before(async function () {
    const reason = pulumiCliUnavailable() || languageUnavailable("yaml");
    if (reason) {
      console.log(`      skipped: ${reason}`);
      this.skip();
    }
    emu = await startEmulator();
    work = mkdtempSync(join(tmpdir(), "bunnynet-ownership-yaml-"));
    const project = compiledProject("ownership-yaml-parents", PROJECT, "tests/engine/programs/sharedParents.js");
    parents = new PulumiCliStack("parents", join(work, "parents"), project);
    await parents.init({ ...stackConfigFor(emu.url, String(emu.fixtures.accessKey)), [`${PROJECT}:prefix`]: `yaml${process.pid}`, [`${PROJECT}:parents`]: "true" }, ["bunnynet:apiKey"]);
    await parents.run(["up", "--yes", "--skip-preview"], true);
    ids = (await parents.outputs()).made as Record<string, number>;
    writeFileSync(join(work, "Pulumi.yaml"), yamlProgram(ids, `yaml${process.pid}`));
  });
  after(async () => {
    await parents?.run(["destroy", "--yes", "--skip-preview"], true).catch(() => undefined);
    await emu?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("the second stack takes none of the first's objects; the first's destroy leaves it whole", async () => {
    const [a, b] = ["staging", "production"].map((name) => new PulumiCliStack(name, join(work, name), work));
    for (const s of [a, b]) {
      await s.init(stackConfigFor(emu.url, String(emu.fixtures.accessKey)), ["bunnynet:apiKey"]);
      installPlugin(s);
    }
    await a.run(["up", "--yes", "--skip-preview"], true);
    const held = await objects(a, "bunnynet:index:");
    assert.equal(held.size, 4, [...held].join(", "));
    const upB = await b.attempt(["up", "--yes", "--skip-preview", "--continue-on-error"]);
    assert.notEqual(upB.status, 0);
    assert.deepEqual(shared(held, await objects(b, "bunnynet:index:")), []);
    assert.match(upB.stdout + upB.stderr, /made by another stack or resource/);
    assert.match(upB.stdout + upB.stderr, /BUNNYNET_ADOPT='urn:pulumi:production::shared-parents-yaml::bunnynet:index:/);
    await a.run(["destroy", "--yes", "--skip-preview"], true);
    await b.run(["up", "--yes", "--skip-preview"], true);
    assert.equal((await objects(b, "bunnynet:index:")).size, 4);
    await b.run(["destroy", "--yes", "--skip-preview"], true);
  });
});

/** The children of the YAML program: an edge rule and a DNS record (marked), a hostname and a script variable (not). */
function yamlProgram(ids: Record<string, number>, prefix: string): string {
  return `name: shared-parents-yaml
runtime: yaml
resources:
  force-ssl:
    type: bunnynet:index:EdgeRule
    properties:
      pullZoneId: ${ids.pullZoneId}
      actions: [{ type: ForceSSL }]
      triggers: [{ type: Url, patterns: ["http://*"] }]
  www:
    type: bunnynet:index:DnsRecord
    properties: { dnsZoneId: ${ids.dnsZoneId}, type: A, name: www, value: 192.0.2.10 }
  www-host:
    type: bunnynet:index:PullZoneHostname
    properties: { pullZoneId: ${ids.pullZoneId}, hostname: www.${prefix}.example }
  mode:
    type: bunnynet:index:ScriptVariable
    properties: { scriptId: ${ids.scriptId}, name: MODE, defaultValue: live }
`;
}

/** The objects a stack's state holds, as `<type> <id>`. */
async function objects(stack: PulumiCliStack, typePrefix = "pulumi-nodejs:dynamic/bunnynet:"): Promise<Set<string>> {
  const exported = JSON.parse(await stack.run(["stack", "export"], true)) as { deployment: { resources?: { type: string; id?: string }[] } };
  return new Set(
    (exported.deployment.resources ?? [])
      .filter((r) => r.type.startsWith(typePrefix) && r.id)
      .map((r) => `${r.type.split(":").pop()} ${r.id}`),
  );
}

function shared(a: Set<string>, b: Set<string>): string[] {
  return [...a].filter((o) => b.has(o));
}

/**
 * The children in the emulator that its documented GETs list, as `<type> <id>` the way a state holds them (the
 * storage file and the collection are read with their zone's and library's own keys, and the Shield zone is never
 * deleted, only put back to Basic: those are left to the states).
 */
async function inventory(emu: TestEmulator, ids: Record<string, number>): Promise<string[]> {
  const get = async (path: string): Promise<Record<string, unknown>> => {
    const res = await fetch(`${emu.url}${path}`, { headers: { AccessKey: String(emu.fixtures.accessKey) } });
    assert.equal(res.status, 200, `GET ${path}: ${res.status}`);
    return (await res.json()) as Record<string, unknown>;
  };
  const list = (v: unknown) => (v ?? []) as Record<string, unknown>[];
  const zone = await get(`/pullzone/${ids.pullZoneId}`);
  const found = [
    ...list(zone.EdgeRules).map((r) => `EdgeRule ${String(r.Guid)}`),
    ...list(zone.Hostnames)
      .filter((h) => h.IsSystemHostname !== true)
      .map((h) => `PullZoneHostname ${String(h.Id)}`),
    ...list((await get(`/shield/waf/custom-rules/${ids.shieldZoneId}`)).data).map((r) => `WafRule ${String(r.id)}`),
    ...list((await get(`/shield/rate-limits/${ids.shieldZoneId}`)).data).map((r) => `RateLimitRule ${String(r.id)}`),
    ...list((await get(`/shield/shield-zone/${ids.shieldZoneId}/access-lists`)).customLists).map((l) => `AccessList ${String(l.listId)}`),
    ...list((await get(`/dnszone/${ids.dnsZoneId}`)).Records).map((r) => `DnsRecord ${String(r.Id)}`),
    ...list((await get(`/compute/script/${ids.scriptId}`)).EdgeScriptVariables).map((v) => `ScriptVariable ${String(v.Id)}`),
  ];
  return found.sort();
}

function report(values: Record<string, unknown>): void {
  console.log(`      ${JSON.stringify(values)}`);
}
