import assert from "node:assert/strict";
import type { TestEmulator } from "../support/emulator";
import { HostError, type ProviderHost, named, hostConfig, startEmulatorAndHost, stopEmulatorAndHost } from "../support/providerHost";
import { ProgramHarness } from "../support/programHarness";
import { TeamMember } from "bunnynet-pulumi/dist/resources/teamMember.js";
import { NotFoundError } from "bunnynet-pulumi/dist/http/errors.js";

const TYPE = "TeamMember";
const PASSWORD = "Correct-horse-9";

describe("pulumi: TeamMember through the SDK's provider host over gRPC", function () {
  let emu: TestEmulator;
  let host: ProviderHost;
  let counter = 0;
  const uniqueEmail = () => `pulumi-member-${++counter}@example.com`;

  before(async () => {
    ({ emu, host } = await startEmulatorAndHost());
  });
  after(() => stopEmulatorAndHost(emu, host));
  const CONFIG = () => hostConfig(emu);

  async function created(extra: Record<string, unknown> = {}) {
    const checked = await host.check(TYPE, {}, { email: uniqueEmail(), firstName: "Ada", lastName: "Lovelace", permissions: ["zones"], ...extra });
    assert.deepEqual(checked.failures, []);
    const res = await host.create(TYPE, checked.inputs);
    return { ...res, inputs: checked.inputs };
  }

  it("check refuses bad input naming each property without any API call; a weak password's failure never shows it", async () => {
    await emu.markRequests();
    const res = await host.check(TYPE, {}, { email: "nobody", firstName: "", permissions: ["zones", "owner"], password: "weakpassword", lsatName: "typo" });
    const byProperty = Object.fromEntries(res.failures.map(named).map((f) => [f.property, f.reason]));
    assert.deepEqual(Object.keys(byProperty).sort(), ["email", "firstName", "lastName", "lsatName", "password", "permissions.1"]);
    assert.match(byProperty.password, /upper-case letter; must contain a digit/);
    assert.ok(!JSON.stringify(res.failures).includes("weakpassword"));
    assert.deepEqual((await host.check(TYPE, {}, { email: "a@example.com", firstName: "A", lastName: "B", permissions: [] })).failures.map(named).map((f) => f.property), ["permissions"]);
    assert.equal((await emu.requests()).length, 0);
  });

  it("check normalises: permissions a sorted set, the address in lower case", async () => {
    const res = await host.check(TYPE, {}, { email: "Ada@Example.com", firstName: "Ada", lastName: "L", permissions: ["users", "billing", "users"] });
    assert.deepEqual(res.inputs, { email: "ada@example.com", firstName: "Ada", lastName: "L", permissions: ["billing", "users"], adoptExisting: false });
  });

  it("creates the member with its roles and password; the id is an output", async () => {
    const { id, outputs } = await created({ permissions: ["support", "zones"], password: PASSWORD });
    const real = await emu.client().teamMembers.getMember(id);
    assert.equal(outputs.memberId, id);
    assert.deepEqual(real.Roles, ["SubuserSupport", "SubuserManage"]);
    assert.deepEqual(outputs.permissions, ["support", "zones"]);
  });

  it("diff: permission order is no change; names and permissions in place; a new address or password replaces (the old member first)", async () => {
    const { id, outputs, inputs } = await created({ permissions: ["billing", "zones"], password: PASSWORD });
    const diff = (news: Record<string, unknown>) => host.diff(TYPE, id, outputs, { ...inputs, ...news });
    const reordered = await host.check(TYPE, inputs, { ...inputs, permissions: ["zones", "billing"] });
    assert.deepEqual(await diff(reordered.inputs), { changes: "none", replaces: [], deleteBeforeReplace: false });
    assert.deepEqual(await diff({ lastName: "King" }), { changes: "some", replaces: [], deleteBeforeReplace: false });
    assert.deepEqual(await diff({ permissions: ["billing"] }), { changes: "some", replaces: [], deleteBeforeReplace: false });
    assert.deepEqual(await diff({ email: "other@example.com" }), { changes: "some", replaces: ["email"], deleteBeforeReplace: false });
    assert.deepEqual(await diff({ password: "Another-horse-10" }), { changes: "some", replaces: ["password"], deleteBeforeReplace: true });
  });

  it("update changes names and permissions in place (same id)", async () => {
    const { id, outputs, inputs } = await created();
    const updated = await host.update(TYPE, id, outputs, { ...inputs, lastName: "King", permissions: ["abuse", "users"] });
    assert.deepEqual([updated.memberId, updated.lastName, updated.permissions], [id, "King", ["abuse", "users"]]);
    const real = await emu.client().teamMembers.getMember(id);
    assert.deepEqual([real.LastName, real.Roles], ["King", ["SubuserAbuse", "SubuserUsers"]]);
  });

  it("refresh shows permissions changed outside Pulumi and keeps the password; a member deleted outside is gone", async () => {
    const { id, outputs, inputs } = await created({ password: PASSWORD });
    await emu.client().teamMembers.updateMember(id, { Email: String(inputs.email), FirstName: "Ada", LastName: "Lovelace", Roles: ["SubuserManage", "SubuserBilling"] });
    host = await host.nextDeployment(CONFIG());
    const read = await host.read(TYPE, id, outputs, inputs);
    assert.deepEqual(read.inputs, { ...inputs, permissions: ["billing", "zones"] });
    assert.equal(read.outputs.password, PASSWORD);
    await emu.client().teamMembers.deleteMember(id);
    host = await host.nextDeployment(CONFIG());
    assert.equal((await host.read(TYPE, id, outputs, inputs)).id, "");
  });

  it("delete removes the member; deleting again (already gone) succeeds", async () => {
    const { id, outputs } = await created();
    await host.delete(TYPE, id, outputs);
    await assert.rejects(emu.client().teamMembers.getMember(id), NotFoundError);
    await host.delete(TYPE, id, outputs);
  });

  it("a create whose answer was lost (500 after the API added the member) leaves exactly one member, recorded", async () => {
    const email = uniqueEmail();
    await emu.faults({ rules: [{ path: "^/team/member$", method: "POST", errorRate: 1, errorStatus: 500, phase: "after", times: 1 }] });
    try {
      const checked = await host.check(TYPE, {}, { email, firstName: "Ada", lastName: "Lovelace", permissions: ["zones"], password: PASSWORD });
      const res = await host.create(TYPE, checked.inputs);
      const named = (await emu.client().teamMembers.listMembers()).filter((m) => m.Email === email);
      assert.deepEqual(named.map((m) => m.Id), [res.id]);
    } finally {
      await emu.clearFaults();
    }
  });

  it("adoption by email: refused without adoptExisting; with it, taken over (its password set), other names refused", async () => {
    const email = uniqueEmail();
    const existing = await emu.client().teamMembers.addMember({ Email: email, FirstName: "Ada", LastName: "Lovelace", Roles: ["SubuserManage"] });
    host = await host.nextDeployment(CONFIG());
    const plain = await host.check(TYPE, {}, { email: email.toUpperCase(), firstName: "Ada", lastName: "Lovelace", permissions: ["zones"] });
    await assert.rejects(host.create(TYPE, plain.inputs), (e: unknown) => e instanceof HostError && /already exists .*adoptExisting: true/.test(e.message));
    const otherName = await host.check(TYPE, {}, { email, firstName: "Grace", lastName: "Lovelace", permissions: ["zones"], adoptExisting: true });
    await assert.rejects(host.create(TYPE, otherName.inputs), /differs from the inputs in: firstName/);
    await emu.markRequests();
    const adopting = await host.check(TYPE, {}, { email, firstName: "Ada", lastName: "Lovelace", permissions: ["zones"], password: PASSWORD, adoptExisting: true });
    const res = await host.create(TYPE, adopting.inputs);
    assert.equal(res.id, existing.Id);
    assert.ok((await emu.requests()).some((r) => r.method === "POST" && r.url === `/team/member/${existing.Id}`), "the program's password is set");
  });
});

describe("pulumi: TeamMember in a program (up, unchanged up, refresh, destroy)", function () {
  let emu: TestEmulator;
  let host: ProviderHost;

  before(async () => {
    ({ emu, host } = await startEmulatorAndHost());
  });
  after(() => stopEmulatorAndHost(emu, host));

  it("deploys in one up, keeps the password only as a secret, then changes nothing; destroy removes the member", async () => {
    const harness = new ProgramHarness({ config: { "bunnynet:apiKey": String(emu.fixtures.accessKey), "bunnynet:apiUrl": emu.url }, secretConfig: ["bunnynet:apiKey"], providerHost: host });
    const program = () => {
      const member = new TeamMember("ops", { email: "ops@example.com", firstName: "Op", lastName: "Erator", permissions: ["zones", "support"], password: PASSWORD });
      return { id: member.memberId };
    };
    const first = await harness.up(program);
    assert.deepEqual(first.steps.map((s) => s.op), ["create"]);
    const stored = harness.resource(TYPE, "ops")!;
    assert.ok(stored.secretKeys.includes("password"), String(stored.secretKeys));
    const plainState = JSON.stringify([Object.fromEntries(Object.entries(stored.outputs).filter(([k]) => !stored.secretKeys.includes(k))), Object.fromEntries(Object.entries(stored.inputs).filter(([k]) => !stored.secretKeys.includes(k)))]);
    assert.ok(!plainState.includes(PASSWORD), "the password in plain state");
    assert.ok(!JSON.stringify(first).includes(PASSWORD), "the password in what the engine was told");

    await emu.markRequests();
    assert.deepEqual((await harness.up(program)).steps.map((s) => s.op), ["same"]);
    assert.deepEqual((await emu.requests()).filter((r) => r.method !== "GET"), [], "an unchanged up writes nothing");
    assert.deepEqual((await harness.refresh()).map((s) => s.op), ["refresh"]);
    assert.deepEqual((await harness.preview(program)).steps.map((s) => s.op), ["same"], "no drift after refresh");

    await harness.destroy();
    await assert.rejects(emu.client().teamMembers.getMember(stored.id), NotFoundError);
  });
});
