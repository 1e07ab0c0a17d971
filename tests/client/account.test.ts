import assert from "node:assert/strict";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { InvalidRequestError, ServerError, UnauthorizedError, ValidationError } from "bunnynet-pulumi/dist/http/errors.js";

describe("client: closing the account (POST /user/closeaccount)", () => {
  let emu: TestEmulator;
  let password: string;

  before(async () => {
    emu = await startEmulator();
    password = String(emu.fixtures.accountPassword);
  });
  after(() => emu.stop());
  afterEach(() => emu.clearFaults());

  const closeCalls = async () => (await emu.requests()).filter((r) => r.route === "/user/closeaccount");

  it("a wrong password is a ValidationError with the server's message, and the password appears nowhere", async () => {
    const wrong = "wrong-password-1234";
    await emu.markRequests();
    await assert.rejects(emu.client({ maxRetries: 3 }).account.closeAccount({ password: wrong, reason: "testing" }), (e: unknown) => {
      assert.ok(e instanceof ValidationError);
      assert.equal(e.status, 400);
      assert.equal(e.serverMessage, "The password is not correct.");
      assert.equal(e.attempts, 1);
      assert.ok(!e.message.includes(wrong));
      assert.ok(!JSON.stringify(e).includes(wrong));
      return true;
    });
    assert.equal((await closeCalls()).length, 1);
  });

  it("refuses an empty password before sending anything", async () => {
    await emu.markRequests();
    await assert.rejects(emu.client().account.closeAccount({ password: "" }), (e: unknown) => e instanceof InvalidRequestError && e.field === "Password");
    assert.deepEqual(await emu.requests(), []);
  });

  it("is attempted exactly once under an injected 503, even with retries configured", async () => {
    await emu.faults({ rules: [{ path: "^/user/closeaccount$", errorRate: 1, errorStatus: 503 }] });
    await emu.markRequests();
    await assert.rejects(emu.client({ maxRetries: 5 }).account.closeAccount({ password }), (e: unknown) => e instanceof ServerError && e.attempts === 1);
    const calls = await closeCalls();
    assert.equal(calls.length, 1);
    assert.equal(calls[0].status, 503);
  });

  it("is attempted exactly once when the connection drops", async () => {
    await emu.faults({ rules: [{ path: "^/user/closeaccount$", dropRate: 1 }] });
    await emu.markRequests();
    await assert.rejects(emu.client({ maxRetries: 5 }).account.closeAccount({ password }), (e: unknown) => (e as { attempts?: number }).attempts === 1);
    assert.equal((await closeCalls()).length, 1);
  });

  it("closes the account with the right password; its key then stops working", async () => {
    const client = emu.client();
    const result = await client.account.closeAccount({ password, reason: "moving on" });
    assert.equal(result.Success, true);
    assert.equal(result.Message, "The account was closed.");
    await assert.rejects(client.account.closeAccount({ password }), UnauthorizedError);
    await assert.rejects(client.apiKeys.listPage(), UnauthorizedError);
  });
});
