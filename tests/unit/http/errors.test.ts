import { nestsDeeperThan } from "bunnynet-pulumi/dist/http/bounds.js";
import assert from "node:assert/strict";
import {
  AlreadyExistsError,
  BunnyError,
  ForbiddenError,
  InvalidRequestError,
  NetworkError,
  NotFoundError,
  RateLimitedError,
  ServerError,
  TimeoutError,
  UnauthorizedError,
  UnexpectedStatusError,
  ValidationError,
  errorForStatus,
  isNotFound,
  parseErrorBody,
  parseRetryAfter,
} from "bunnynet-pulumi/dist/http/errors.js";
import { isAmbiguous } from "bunnynet-pulumi/dist/pulumi/index.js";

const answer = (status: number, body = "", retryAfter?: string) => errorForStatus("POST", "/pullzone/1/addHostname", status, body, retryAfter);

describe("unit: error mapping (status and body to a typed error)", () => {
  it("maps each status to its class", () => {
    const cases: [number, new (...args: never[]) => BunnyError][] = [
      [401, UnauthorizedError],
      [403, ForbiddenError],
      [404, NotFoundError],
      [409, AlreadyExistsError],
      [400, ValidationError],
      [422, ValidationError],
      [429, RateLimitedError],
      [500, ServerError],
      [503, ServerError],
      [302, UnexpectedStatusError],
      [418, UnexpectedStatusError],
    ];
    for (const [status, type] of cases) {
      const e = answer(status);
      assert.equal(e.constructor, type, `${status} gave ${e.name}`);
      assert.equal(e.name, type.name);
      assert.equal(e.status, status);
    }
  });

  it("writes method, path, status and what the server said (message, key, field) into the message", () => {
    const e = answer(400, JSON.stringify({ ErrorKey: "pullzone.hostname_invalid", Field: "Hostname", Message: "The hostname is not valid" }));
    assert.equal(e.message, "POST /pullzone/1/addHostname answered 400: The hostname is not valid (pullzone.hostname_invalid) [field Hostname]");
    assert.equal(e.errorKey, "pullzone.hostname_invalid");
    assert.equal(e.field, "Hostname");
    assert.equal(e.attempts, 1);
  });

  it("detects not-found for read and delete, and only that", () => {
    assert.ok(isNotFound(answer(404)));
    assert.ok(!isNotFound(answer(410)));
    assert.ok(!isNotFound(answer(400, '{"Message":"not found"}')));
    assert.ok(!isNotFound(new Error("404")));
  });

  it("reads a 400 or 422 that says the object exists as AlreadyExistsError (still a ValidationError), and other refusals not", () => {
    for (const body of [
      { Message: "The hostname is already registered" },
      { ErrorKey: "pullzone.hostname_taken", Message: "nope" },
      { error: { errorKey: "validation_error.duplicate", message: "x" } },
    ]) {
      const e = answer(400, JSON.stringify(body));
      assert.ok(e instanceof AlreadyExistsError, JSON.stringify(body));
      assert.ok(e instanceof ValidationError);
    }
    assert.ok(answer(422, JSON.stringify({ title: "a name that EXISTS elsewhere" })) instanceof AlreadyExistsError);
    const refused = answer(400, JSON.stringify({ Message: "The name must not be empty" }));
    assert.ok(refused instanceof ValidationError && !(refused instanceof AlreadyExistsError));
  });

  it("carries the delay a 429 asked for, in its message too", () => {
    const e = answer(429, "", "3") as RateLimitedError;
    assert.equal(e.retryAfterMs, 3000);
    assert.equal(e.message, "POST /pullzone/1/addHostname answered 429 (retry after 3000 ms)");
    assert.equal((answer(429) as RateLimitedError).retryAfterMs, undefined);
  });

  it("tells which failures may have reached the server (ambiguous) from refusals", () => {
    const d = { method: "POST", path: "/x" };
    assert.ok(isAmbiguous(answer(502)));
    assert.ok(isAmbiguous(new NetworkError(d, "ECONNRESET", false)));
    assert.ok(isAmbiguous(new TimeoutError(d, "no answer within 30 s")));
    assert.ok(!isAmbiguous(new NetworkError(d, "ECONNREFUSED", true)));
    for (const status of [400, 401, 404, 409, 429]) assert.ok(!isAmbiguous(answer(status)), String(status));
  });

  it("names the timeout and network failures", () => {
    const timeout = new TimeoutError({ method: "GET", path: "/videolibrary" }, "no answer within 30 s");
    assert.equal(timeout.code, "ETIMEDOUT");
    assert.equal(timeout.message, "GET /videolibrary timed out: no answer within 30 s");
    assert.equal(new NetworkError({ method: "GET", path: "/x" }, undefined, true).message, "GET /x failed: network error");
  });

  it("InvalidRequestError names the first field and shows at most five problems", () => {
    const issues = Array.from({ length: 7 }, (_, i) => ({ field: `f${i}`, message: "bad" }));
    const e = new InvalidRequestError("PUT", "/x", issues);
    assert.equal(e.field, "f0");
    assert.equal(e.issues.length, 5);
    assert.equal(e.message, "PUT /x not sent: f0: bad; f1: bad; f2: bad; f3: bad; f4: bad; and 2 more: [field f0]");
  });

  it("keeps every part of a message bounded, however large the server's answer", () => {
    const e = answer(500, "x".repeat(2_000_000));
    assert.ok(e.message.length < 400, `${e.message.length} characters`);
    assert.match(e.message, /^POST \/pullzone\/1\/addHostname answered 500: x+… \(\d+ more characters\)$/);
  });

  describe("parseErrorBody: every error shape of the APIs", () => {
    it("core ApiErrorData, Shield's and logging's {error}, problem details, Shield and Stream's status model", () => {
      assert.deepEqual(parseErrorBody('{"ErrorKey":"k","Field":"F","Message":"m"}'), { message: "m", errorKey: "k", field: "F" });
      assert.deepEqual(parseErrorBody('{"error":{"errorKey":"not_found.zone","message":"m"}}'), { message: "m", errorKey: "not_found.zone", field: undefined });
      assert.deepEqual(parseErrorBody('{"error":{"code":"bad_range","message":"m","details":{"field":"from"}}}'), { message: "m", errorKey: "bad_range", field: "from" });
      assert.deepEqual(parseErrorBody('{"type":"urn:t","title":"Bad","errors":[{"field":"a","message":"x"},{"field":"b","message":"y"}]}'), {
        message: "Bad — a: x; b: y",
        field: "a",
        errorKey: "urn:t",
      });
      assert.deepEqual(parseErrorBody('{"title":"Bad","detail":"more precise"}'), { message: "more precise", field: undefined, errorKey: undefined });
      assert.deepEqual(parseErrorBody('{"success":false,"message":"m","statusCode":400}'), { message: "m", errorKey: undefined });
    });

    it("plain text, empty, a JSON scalar and an unknown object", () => {
      assert.deepEqual(parseErrorBody("Bad Gateway"), { message: "Bad Gateway" });
      assert.deepEqual(parseErrorBody("  \n"), {});
      assert.deepEqual(parseErrorBody("42"), { message: "42" });
      assert.deepEqual(parseErrorBody('{"something":"else"}'), {});
    });
  });

  describe("parseRetryAfter", () => {
    const now = Date.parse("2025-01-01T00:00:00Z");

    it("reads seconds (with a fraction) and HTTP dates, capped at a minute", () => {
      assert.equal(parseRetryAfter("2"), 2000);
      assert.equal(parseRetryAfter(" 1.5 "), 1500);
      assert.equal(parseRetryAfter(["4", "9"]), 4000);
      assert.equal(parseRetryAfter("Wed, 01 Jan 2025 00:00:10 GMT", now), 10_000);
      assert.equal(parseRetryAfter("Tue, 31 Dec 2024 23:59:00 GMT", now), 0);
      assert.equal(parseRetryAfter("86400"), 60_000);
    });

    it("ignores what HTTP does not define, as if the header were absent", () => {
      for (const value of ["", "0x10", "1e3", "-5", "soon", "Infinity", "2025-01-01T00:00:10Z", undefined]) assert.equal(parseRetryAfter(value, now), undefined, String(value));
    });
  });
});

describe("unit: the nesting bound of JSON answers", () => {
  it("counts only brackets outside strings, escaped quotes included", () => {
    assert.equal(nestsDeeperThan(`{"a":"${"[".repeat(500)}\\"{{{{"}`, 2), false);
    assert.equal(nestsDeeperThan("[[[]]]", 3), false);
    assert.equal(nestsDeeperThan("[[[[]]]]", 3), true);
    assert.equal(nestsDeeperThan('{"a":{"b":[{"c":"]]]"}]}}', 3), true);
  });
});
