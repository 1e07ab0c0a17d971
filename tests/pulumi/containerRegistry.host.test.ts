import assert from "node:assert/strict";
import * as bunnynet from "bunnynet-pulumi/dist/index.js";
import { ProgramHarness } from "../support/programHarness";
import type { TestEmulator } from "../support/emulator";
import { HostError, ProviderHost, UNKNOWN_VALUE, named, secret, hostConfig, startEmulatorAndHost, stopEmulatorAndHost } from "../support/providerHost";
import { NotFoundError } from "bunnynet-pulumi/dist/http/errors.js";

const TYPE = "ContainerRegistry";

/**
 * ContainerRegistry through the SDK's provider host: check (the url follows the type), a write-only password that
 * changes in place and is noticed when changed outside Pulumi (by the ends the API shows), replacement on type or
 * user name, refresh, adoption by display name (its own, or the type's) and user name, and "already gone" on delete.
 */
describe("pulumi: ContainerRegistry through the SDK's provider host over gRPC", function () {
  let emu: TestEmulator;
  let host: ProviderHost;
  let counter = 0;
  const uniqueUser = () => `pulumi-user-${++counter}`;
  const passwords: string[] = [];
  const uniquePassword = () => {
    const p = `ghp_${counter}_${Math.random().toString(36).slice(2)}`;
    passwords.push(p);
    return p;
  };

  before(async () => {
    ({ emu, host } = await startEmulatorAndHost());
  });
  after(() => stopEmulatorAndHost(emu, host));
  const CONFIG = () => hostConfig(emu);
  const registries = () => emu.client().containers;

  async function checked(props: Record<string, unknown>) {
    const res = await host.check(TYPE, {}, props);
    assert.deepEqual(res.failures, []);
    return res.inputs;
  }
  async function created(extra: Record<string, unknown> = {}) {
    const password = uniquePassword();
    const inputs = await checked({ type: "GitHub", username: uniqueUser(), password: secret(password), ...extra });
    return { ...(await host.create(TYPE, inputs)), inputs, password };
  }

  it("check refuses bad input naming each property, without an API call and without echoing the password", async () => {
    await emu.markRequests();
    const res = await host.check(TYPE, {}, { type: "Quay", username: "", password: secret("p".repeat(4097)), pasword: "typo" });
    const byProperty = Object.fromEntries(res.failures.map(named).map((f) => [f.property, f.reason]));
    assert.deepEqual(Object.keys(byProperty).sort(), ["password", "pasword", "type", "username"]);
    assert.ok(!JSON.stringify(res.failures).includes("pppp"));
    const wrongHost = await host.check(TYPE, {}, { type: "DockerHub", url: "ghcr.io", username: "u", password: secret("p") });
    assert.deepEqual(wrongHost.failures.map(named), [{ property: "url", reason: "a DockerHub registry is at docker.io: the API takes no other host" }]);
    assert.equal((await emu.requests()).length, 0);
  });

  it("check fills the url from the type, accepts it written as a URL, and judges nothing not known yet", async () => {
    assert.equal((await checked({ type: "DockerHub", username: "u", password: secret("p") })).url, "docker.io");
    assert.equal((await checked({ type: "GitHub", url: "https://ghcr.io/", username: "u", password: secret("p") })).url, "ghcr.io");
    const preview = await host.check(TYPE, {}, { type: UNKNOWN_VALUE, url: "anything", username: "u", password: UNKNOWN_VALUE });
    assert.deepEqual(preview.failures, []);
  });

  it("creates the registry: its id as output, the password only encrypted in state and never in the API's answers", async () => {
    await emu.markRequests();
    const { id, outputs, inputs, password } = await created();
    // The look-up (adoption, and safety after a lost answer), the create, the read back.
    assert.deepEqual((await emu.requests()).map((r) => `${r.method} ${r.route}`), ["GET /mc/registries", "POST /mc/registries", "GET /mc/registries/:registryId"]);
    const real = await registries().getRegistry(Number(id));
    assert.deepEqual(outputs, { ...inputs, registryId: real.id });
    assert.equal(real.userName, inputs.username);
    assert.equal(real.hostName, "ghcr.io");
    assert.ok(!JSON.stringify(real).includes(password));
  });

  it("diff: a new password changes in place; type, url or username replace", async () => {
    const { id, outputs, inputs } = await created();
    assert.deepEqual(await host.diff(TYPE, id, outputs, inputs), { changes: "none", replaces: [], deleteBeforeReplace: false });
    assert.deepEqual(await host.diff(TYPE, id, outputs, { ...inputs, password: uniquePassword() }), { changes: "some", replaces: [], deleteBeforeReplace: false });
    assert.deepEqual((await host.diff(TYPE, id, outputs, { ...inputs, type: "DockerHub", url: "docker.io" })).replaces.sort(), ["type", "url"]);
    assert.deepEqual((await host.diff(TYPE, id, outputs, { ...inputs, username: "someone-else" })).replaces, ["username"]);
  });

  it("update writes the new password in place; refresh notices a password changed outside Pulumi; a deleted one is gone", async () => {
    const { id, outputs, inputs } = await created();
    const changed = { ...inputs, password: uniquePassword() };
    await emu.markRequests();
    const updated = await host.update(TYPE, id, outputs, changed);
    assert.deepEqual((await emu.requests()).map((r) => `${r.method} ${r.route}`), ["PUT /mc/registries/:registryId", "GET /mc/registries/:registryId"]);
    assert.equal(updated.registryId, Number(id));
    host = await host.nextDeployment(CONFIG());
    await emu.markRequests();
    assert.deepEqual((await host.read(TYPE, id, updated, changed)).outputs, updated);
    assert.deepEqual((await emu.requests()).map((r) => `${r.method} ${r.route}`), ["GET /mc/registries/:registryId"], "a refresh is one read");
    await registries().updateRegistry(Number(id), { displayName: "GitHub", type: "gitHub", passwordCredentials: { userName: String(inputs.username), password: "set-in-the-dashboard" } });
    host = await host.nextDeployment(CONFIG());
    const drifted = await host.read(TYPE, id, updated, changed);
    assert.equal(drifted.id, id);
    assert.equal(drifted.inputs!.password, undefined, "the password is no longer known");
    assert.equal((await host.diff(TYPE, id, drifted.outputs, changed)).changes, "some");
    await registries().deleteRegistry(Number(id));
    host = await host.nextDeployment(CONFIG());
    assert.equal((await host.read(TYPE, id, updated, changed)).id, "");
  });

  it("delete removes the registry; deleting it again succeeds", async () => {
    const { id, outputs } = await created();
    await emu.markRequests();
    await host.delete(TYPE, id, outputs);
    assert.deepEqual((await emu.requests()).map((r) => `${r.method} ${r.route}`), ["DELETE /mc/registries/:registryId"]);
    await assert.rejects(registries().getRegistry(Number(id)), NotFoundError);
    await host.delete(TYPE, id, outputs);
  });

  it("an existing registry is refused without adoptExisting; with it, it is adopted and the program's password written", async () => {
    const username = uniqueUser();
    const existing = await registries().addRegistry({ displayName: "GitHub", type: "gitHub", passwordCredentials: { userName: username, password: "old-token" } });
    host = await host.nextDeployment(CONFIG());
    const inputs = await checked({ type: "GitHub", username, password: secret(uniquePassword()) });
    await assert.rejects(host.create(TYPE, inputs), (e: unknown) => e instanceof HostError && /already exists .*set adoptExisting: true/.test(e.message));
    host = await host.nextDeployment(CONFIG());
    await emu.markRequests();
    const adopted = await host.create(TYPE, { ...inputs, adoptExisting: true });
    assert.equal(adopted.id, String(existing));
    assert.ok((await emu.requests()).some((r) => `${r.method} ${r.route}` === "PUT /mc/registries/:registryId"), "the password is written");
  });

  it("a display name of its own: sent, read back without drift, changed in place, and what finds a registry named in the dashboard", async () => {
    const { id, outputs, inputs } = await created({ displayName: "team images" });
    assert.equal((await registries().getRegistry(Number(id))).displayName, "team images");
    assert.equal(outputs.displayName, "team images");
    host = await host.nextDeployment(CONFIG());
    assert.deepEqual((await host.read(TYPE, id, outputs, inputs)).outputs, outputs);
    assert.deepEqual(await host.diff(TYPE, id, outputs, { ...inputs, displayName: "team images 2" }), { changes: "some", replaces: [], deleteBeforeReplace: false });
    const renamed = await host.update(TYPE, id, outputs, { ...inputs, displayName: "team images 2" });
    assert.equal((await registries().getRegistry(Number(id))).displayName, "team images 2");
    assert.equal(renamed.displayName, "team images 2");
    // Renamed in the dashboard: refresh shows the registry's name.
    await registries().updateRegistry(Number(id), { displayName: "renamed", type: "gitHub", passwordCredentials: { userName: String(inputs.username), password: "x" } });
    host = await host.nextDeployment(CONFIG());
    assert.equal((await host.read(TYPE, id, renamed, { ...inputs, displayName: "team images 2" })).inputs!.displayName, "renamed");
    await host.delete(TYPE, id, renamed);

    // A registry named in the dashboard is found by its display name and user name; a program without a display name
    // (the type's) does not take it, and a default-named one is read back without one.
    const username = uniqueUser();
    const existing = await registries().addRegistry({ displayName: "team images", type: "gitHub", passwordCredentials: { userName: username, password: "old-token" } });
    host = await host.nextDeployment(CONFIG());
    const adopted = await host.create(TYPE, { ...(await checked({ type: "GitHub", displayName: "team images", username, password: secret(uniquePassword()) })), adoptExisting: true });
    assert.equal(adopted.id, String(existing));
    assert.equal(adopted.outputs.displayName, "team images");
    host = await host.nextDeployment(CONFIG());
    const other = await host.create(TYPE, { ...(await checked({ type: "GitHub", username, password: secret(uniquePassword()) })), adoptExisting: true });
    assert.notEqual(other.id, String(existing), "the type's name does not find a registry named otherwise");
    assert.equal(other.outputs.displayName, undefined);
    assert.equal((await registries().getRegistry(Number(other.id))).displayName, "GitHub");
    await host.delete(TYPE, other.id, other.outputs);
    await host.delete(TYPE, adopted.id, adopted.outputs);
  });

  it("check refuses a display name out of the API's bounds", async () => {
    const res = await host.check(TYPE, {}, { type: "GitHub", displayName: "x".repeat(51), username: "u", password: secret("p") });
    assert.deepEqual(res.failures.map(named), [{ property: "displayName", reason: "must be at most 50 characters" }]);
  });

  it("no password is in the emulator's request log or the host's output", async () => {
    const { id, outputs, inputs } = await created();
    await host.read(TYPE, id, outputs, inputs);
    await host.delete(TYPE, id, outputs);
    const log = JSON.stringify(emu.emulator.ctx.requestLog.since(0));
    assert.ok(log.includes("/mc/registries"));
    for (const p of passwords) {
      assert.ok(!log.includes(p), "a password in the request log");
      assert.ok(!host.logs().includes(p), "a password in the host's output");
    }
  });

  it("a password the program passes as a plain string is still stored as a secret, and the registry id is usable as a plain output", async () => {
    const harness = new ProgramHarness({ project: "registry-test", config: { "bunnynet:apiKey": String(emu.fixtures.accessKey), "bunnynet:apiUrl": emu.url }, secretConfig: ["bunnynet:apiKey"], providerHost: host });
    const run = await harness.up(() => ({ id: new bunnynet.ContainerRegistry("plain", { type: "DockerHub", username: uniqueUser(), password: "given-in-plain-text" }).registryId }));
    const [stored] = harness.resources();
    assert.deepEqual(stored.secretKeys, ["password"]);
    assert.equal(typeof run.outputs.id, "number");
    await harness.destroy();
    await assert.rejects(registries().getRegistry(Number(run.outputs.id)), NotFoundError);
  });
});
