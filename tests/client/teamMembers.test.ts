import assert from "node:assert/strict";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { AlreadyExistsError, NotFoundError, ValidationError } from "bunnynet-pulumi/dist/http/errors.js";

/** Team members over HTTP, with the account's JWT: the API's answers and validation. */
describe("client: team members", () => {
  let emu: TestEmulator;
  let counter = 0;
  const uniqueEmail = () => `member-${++counter}@example.com`;
  const PASSWORD = "Correct-horse-9";

  before(async () => {
    emu = await startEmulator();
  });
  after(() => emu.stop());

  it("adds (201 with the member, without its password), reads, lists, finds by email without case, updates and deletes", async () => {
    const client = emu.client();
    const email = uniqueEmail();
    const exchanged = await fetch(`${emu.url}/apikey/exchange`, { method: "POST", headers: { AccessKey: emu.fixtures.accessKey, "content-type": "application/json" }, body: JSON.stringify({ AccessKey: emu.fixtures.accessKey }) });
    const jwt = ((await exchanged.json()) as { Token: string }).Token;
    await emu.markRequests();
    const added = await client.teamMembers.addMember({ Email: email, FirstName: "Ada", LastName: "Lovelace", Roles: ["SubuserManage", "SubuserBilling"], Password: PASSWORD });
    assert.deepEqual([added.Email, added.FirstName, added.LastName, added.Roles], [email, "Ada", "Lovelace", ["SubuserManage", "SubuserBilling"]], "the role Subuser is left out");
    const raw = await (await fetch(`${emu.url}/team/member/${added.Id}`, { headers: { Authorization: jwt } })).text();
    assert.match(raw, /"Roles":\["Subuser","SubuserManage","SubuserBilling"\]/, "the API answers the role every member has");
    assert.ok(!raw.includes(PASSWORD));
    assert.deepEqual(await client.teamMembers.getMember(added.Id), added);
    assert.equal((await client.teamMembers.findMemberByEmail(email.toUpperCase()))?.Id, added.Id);
    assert.ok((await client.teamMembers.listMembers()).some((m) => m.Id === added.Id));
    await client.teamMembers.updateMember(added.Id, { Email: email, FirstName: "Ada", LastName: "King", Roles: ["SubuserUsers"] });
    assert.deepEqual((await client.teamMembers.getMember(added.Id)).Roles, ["SubuserUsers"]);
    await client.teamMembers.deleteMember(added.Id);
    await assert.rejects(client.teamMembers.getMember(added.Id), NotFoundError);
    await assert.rejects(client.teamMembers.deleteMember(added.Id), NotFoundError);
    const requests = await emu.requests();
    assert.ok(requests.filter((r) => r.url.startsWith("/team/")).every((r) => r.auth === "bearer"), "every member request carries the JWT, never the key");
  });

  it("refuses a taken address (AlreadyExistsError), an unknown role, a weak password and a new address, naming the field", async () => {
    const client = emu.client();
    const email = uniqueEmail();
    const member = await client.teamMembers.addMember({ Email: email, FirstName: "A", LastName: "B", Roles: ["SubuserSupport"] });
    await assert.rejects(client.teamMembers.addMember({ Email: email.toUpperCase(), FirstName: "A", LastName: "B", Roles: ["SubuserSupport"] }), AlreadyExistsError);
    await assert.rejects(client.teamMembers.addMember({ Email: uniqueEmail(), FirstName: "A", LastName: "B", Roles: ["Owner"] }), (e: unknown) => e instanceof ValidationError && e.field === "Roles");
    await assert.rejects(
      client.teamMembers.addMember({ Email: uniqueEmail(), FirstName: "A", LastName: "B", Roles: ["SubuserSupport"], Password: "alllowercase12" }),
      (e: unknown) => e instanceof ValidationError && e.field === "Password" && /an upper-case letter, a character other than a letter or digit/.test(e.message) && !e.message.includes("alllowercase12"),
    );
    await assert.rejects(client.teamMembers.updateMember(member.Id, { Email: uniqueEmail(), FirstName: "A", LastName: "B", Roles: ["SubuserSupport"] }), (e: unknown) => e instanceof ValidationError && e.field === "Email");
    await emu.markRequests();
    await assert.rejects(client.teamMembers.addMember({ Email: "not-an-address", FirstName: "A", LastName: "B", Roles: ["SubuserSupport"] }), /Email/);
    assert.equal((await emu.requests()).length, 0, "the client refuses what it can tell before sending");
  });
});
