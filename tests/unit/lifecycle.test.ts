// Every lifecycle is a table in one shape (lib/lifecycle.ts), and every move a table does not allow is refused
// the same way: 409 `conflict`, naming the object, its status and the move.
import { describe, expect, it } from "vitest";
import { ACCOUNT_LIFECYCLE, INSTALMENT_LIFECYCLE, MANDATE_LIFECYCLE } from "@/lib/accounts/state-machine";
import { APPLICATION_LIFECYCLE } from "@/lib/applications/state-machine";
import { ApiError, renderEnvelope } from "@/lib/errors";
import { API_KEY_LIFECYCLE } from "@/lib/keys/state-machine";
import { assertMove, assertMoveTo, canMove, IllegalTransitionError, type Lifecycle } from "@/lib/lifecycle";
import { PAYMENT_LIFECYCLE } from "@/lib/payments/state-machine";
import { WEBHOOK_DELIVERY_LIFECYCLE } from "@/lib/webhooks/delivery-state-machine";
import { WEBHOOK_ENDPOINT_LIFECYCLE } from "@/lib/webhooks/endpoint-state-machine";
import { readSourceFiles } from "../helpers/source-files";

const LIFECYCLES: Record<string, Lifecycle<string, string>> = {
  application: APPLICATION_LIFECYCLE,
  account: ACCOUNT_LIFECYCLE,
  payment: PAYMENT_LIFECYCLE,
  "webhook endpoint": WEBHOOK_ENDPOINT_LIFECYCLE,
  "webhook delivery": WEBHOOK_DELIVERY_LIFECYCLE,
  "API key": API_KEY_LIFECYCLE,
  mandate: MANDATE_LIFECYCLE,
  instalment: INSTALMENT_LIFECYCLE,
};

function statusesOf(lifecycle: Lifecycle<string, string>): string[] {
  return [...new Set(Object.values(lifecycle.moves).flatMap((move) => [...move.from, move.to]))];
}

const ILLEGAL = Object.entries(LIFECYCLES).flatMap(([name, lifecycle]) =>
  Object.keys(lifecycle.moves).flatMap((trigger) => statusesOf(lifecycle).filter((status) => !canMove(lifecycle, status, trigger)).map((status) => [name, trigger, status] as const)),
);

describe("the lifecycles", () => {
  it("are the eight tables, each naming its object and wording every move", () => {
    for (const [name, lifecycle] of Object.entries(LIFECYCLES)) {
      expect(lifecycle.object).toBe(name);
      expect(Object.keys(lifecycle.said).sort()).toEqual(Object.keys(lifecycle.moves).sort());
    }
    expect(ILLEGAL).toHaveLength(100);
  });

  it("gives keys, mandates and instalments the moves they make", () => {
    expect(API_KEY_LIFECYCLE.moves).toEqual({ revoke: { from: ["active"], to: "revoked", events: [] } });
    expect(MANDATE_LIFECYCLE.moves).toEqual({ revoke: { from: ["active"], to: "revoked", events: ["mandate.revoked"] } });
    expect(INSTALMENT_LIFECYCLE.moves).toEqual({
      pay: { from: ["scheduled", "missed", "partially_paid"], to: "paid", events: [] },
      pay_in_part: { from: ["scheduled", "missed", "partially_paid"], to: "partially_paid", events: [] },
      miss: { from: ["scheduled"], to: "missed", events: [] },
    });
  });

  it.each(ILLEGAL)("refuses %s %s from %s with the one 409 shape", (name, trigger, status) => {
    const lifecycle = LIFECYCLES[name]!;
    const refused = (() => {
      try {
        assertMove(lifecycle, status, trigger);
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(IllegalTransitionError);
    expect(refused).toBeInstanceOf(ApiError);
    const article = /^[aeiou]/i.test(name) ? "An" : "A";
    expect(refused).toMatchObject({ code: "conflict", object: name, from: status, trigger, message: `${article} ${name} that is ${status} cannot be ${lifecycle.said[trigger]}.` });
  });

  it("words the refusals as integrators read them in the envelope", () => {
    const message = (lifecycle: Lifecycle<string, string>, status: string, trigger: string, shownAs?: string) => {
      try {
        assertMove(lifecycle, status, trigger, shownAs);
      } catch (error) {
        const rendered = renderEnvelope(error as ApiError, "cor_x", "partner");
        expect(rendered).toMatchObject({ status: 409, body: { error: { type: "invalid_request_error", code: "conflict", retryable: false } } });
        return rendered.body.error.message;
      }
    };
    expect(message(PAYMENT_LIFECYCLE, "settled", "settle")).toBe("A payment that is settled cannot be settled.");
    expect(message(APPLICATION_LIFECYCLE, "declined", "fund")).toBe("An application that is declined cannot be funded.");
    expect(message(ACCOUNT_LIFECYCLE, "closed", "write_off")).toBe("An account that is closed cannot be written off.");
    expect(message(WEBHOOK_ENDPOINT_LIFECYCLE, "disabled_manual", "disable_for_failing", "disabled")).toBe("A webhook endpoint that is disabled cannot be disabled for failing.");
    expect(message(API_KEY_LIFECYCLE, "revoked", "revoke")).toBe("An API key that is revoked cannot be revoked.");
    expect(message(MANDATE_LIFECYCLE, "revoked", "revoke")).toBe("A mandate that is revoked cannot be revoked.");
    expect(message(INSTALMENT_LIFECYCLE, "paid", "pay_in_part")).toBe("An instalment that is paid cannot be paid in part.");
  });

  it("checks a status a writer sets (an allocation's instalments) as the table's move that leads to it, with none back to scheduled", () => {
    expect(assertMoveTo(INSTALMENT_LIFECYCLE, "missed", "paid")).toBe(INSTALMENT_LIFECYCLE.moves.pay);
    expect(assertMoveTo(INSTALMENT_LIFECYCLE, "scheduled", "missed")).toBe(INSTALMENT_LIFECYCLE.moves.miss);
    expect(() => assertMoveTo(INSTALMENT_LIFECYCLE, "paid", "partially_paid")).toThrow("An instalment that is paid cannot be paid in part.");
    expect(() => assertMoveTo(INSTALMENT_LIFECYCLE, "missed", "missed")).toThrow("An instalment that is missed cannot be missed.");
    for (const status of ["missed", "partially_paid", "paid"] as const) {
      expect(() => assertMoveTo(INSTALMENT_LIFECYCLE, status, "scheduled")).toThrow(`An instalment that is ${status} cannot be scheduled.`);
    }
  });

  it("keeps each state-machine.ts to its tables: nothing it imports runs, so no row is read, locked or written there", () => {
    const machines = readSourceFiles(["lib"]).filter(({ file }) => file.endsWith("state-machine.ts"));
    expect(machines).toHaveLength(7);
    const running = machines.flatMap(({ file, text }) => [...text.matchAll(/^import (?!type )[^;]*? from "([^"]+)";/gm)].map((match) => `${file} imports ${match[1]}`));
    expect(running).toEqual([]);
  });
});
