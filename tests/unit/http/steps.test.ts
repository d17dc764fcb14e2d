// The route builder's steps (lib/http/steps.ts): listed once, in the order the architecture describes; each
// declares the codes it can raise, and the codes an endpoint's reference lists are exactly what its steps declare.
import { describe, expect, it } from "vitest";
import { endpoint, ok } from "@/lib/http/route";
import { runSteps, stepErrorCodes, STEPS } from "@/lib/http/steps";
import type { Exchange, Step } from "@/lib/http/step";
import { SUB_LIMITS } from "@/lib/ratelimit/policies";

describe("the steps", () => {
  it("run in one fixed order: admission, then the input, the caller it names and the caller's time, then the body's validation and the handler", () => {
    expect(STEPS.map((step) => step.name)).toEqual([
      "map errors",
      "meter the client address",
      "authenticate the caller",
      "spend the project's bucket and hold a concurrency slot",
      "check the token's scope",
      "keep test helpers to the sandbox",
      "check the project's capability",
      "parse the path parameters",
      "parse the query",
      "decode the body",
      "authenticate the caller the body names",
      "take the request's time on the caller's clock",
      "validate the body",
      "enter the project's share of the pool",
      "render the reply",
      "replay or claim the Idempotency-Key",
      "spend the route's own limit",
      "run the handler in one transaction",
      "handle",
    ]);
  });

  it("take the request's time once, after every step that learns who calls, and validate the body at that time", () => {
    const names = STEPS.map((step) => step.name);
    const time = names.indexOf("take the request's time on the caller's clock");
    const authenticating = names.filter((name) => name.startsWith("authenticate"));
    expect(authenticating).toHaveLength(2);
    for (const name of authenticating) expect(names.indexOf(name), name).toBeLessThan(time);
    expect(names.indexOf("validate the body")).toBeGreaterThan(time);
  });

  it("declare the codes an endpoint's guards imply, and nothing for guards it lacks", () => {
    const bare = endpoint({ auth: { kind: "none" }, handler: () => ok({}) }).config;
    expect([...stepErrorCodes({ ring: "site", config: bare })]).toEqual(["internal_error"]);
    const guarded = endpoint({
      auth: { kind: "bearer", scope: "apply:write", capability: "white_label" },
      rateLimit: SUB_LIMITS.applicationsCreate,
      idempotent: true,
      errors: ["conflict"],
      handler: () => ok({}),
    }).config;
    expect([...stepErrorCodes({ ring: "partner", config: guarded })].sort()).toEqual(
      [
        "internal_error",
        "unauthenticated",
        "invalid_api_key",
        "token_expired",
        "token_revoked",
        "environment_mismatch",
        "audience_mismatch",
        "rate_limited",
        "insufficient_scope",
        "capability_denied",
        "idempotency_key_malformed",
        "idempotency_key_reused",
        "idempotency_key_in_progress",
        "conflict",
      ].sort(),
    );
  });

  it("stop where a step answers without calling the next", async () => {
    const ran: string[] = [];
    const step = (name: string, answers = false): Step => ({
      name,
      raises: () => [],
      async run(exchange, next) {
        ran.push(name);
        if (answers) exchange.response = new Response(name);
        else await next();
      },
    });
    const exchange = {} as Exchange;
    await runSteps(exchange, [step("first"), step("answers", true), step("never")]);
    expect(ran).toEqual(["first", "answers"]);
    expect(await exchange.response?.text()).toBe("answers");
  });
});
