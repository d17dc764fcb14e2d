// The account lifecycle (spec 3.2; the moves are docs/accounts.md's "Statuses"), with its mandate's and its
// instalments'. An account opens `performing` (lib/accounts/funding.ts); settled and closed are final. Rows move
// through lib/accounts/transition.ts; instalments with the money applied to them (lib/accounts/ledger.ts).
import type { Account, Instalment } from "../generated/prisma/client";
import type { Lifecycle } from "../lifecycle";
import type { AccountStatus } from "./schemas";

export const OPEN_ACCOUNT_STATUSES = ["performing", "in_arrears", "forborne"] as const;

const MOVES = {
  fall_into_arrears: { from: ["performing"], to: "in_arrears", events: ["account.updated"] },
  clear_arrears: { from: ["in_arrears"], to: "performing", events: ["account.updated"] },
  agree_forbearance: { from: ["performing", "in_arrears"], to: "forborne", events: ["account.updated"] },
  end_forbearance: { from: ["forborne"], to: "performing", events: ["account.updated"] },
  settle: { from: OPEN_ACCOUNT_STATUSES, to: "settled", events: ["account.updated", "account.closed"] },
  write_off: { from: OPEN_ACCOUNT_STATUSES, to: "closed", events: ["account.updated", "account.closed"] },
} as const;
export type AccountTrigger = keyof typeof MOVES;

export const ACCOUNT_LIFECYCLE: Lifecycle<AccountStatus, AccountTrigger> = {
  object: "account",
  moves: MOVES,
  said: { fall_into_arrears: "put into arrears", clear_arrears: "cleared of arrears", agree_forbearance: "put under a forbearance arrangement",
    end_forbearance: "taken out of forbearance", settle: "settled", write_off: "written off" },
};

export const MANDATE_LIFECYCLE: Lifecycle<Account["mandateStatus"], "revoke"> = {
  object: "mandate",
  moves: { revoke: { from: ["active"], to: "revoked", events: ["mandate.revoked"] } },
  said: { revoke: "revoked" },
};

const UNPAID = ["scheduled", "missed", "partially_paid"] as const;

/** The account's events carry its instalments: theirs write none. */
export const INSTALMENT_LIFECYCLE: Lifecycle<Instalment["status"], "pay" | "pay_in_part" | "miss"> = {
  object: "instalment",
  moves: { pay: { from: UNPAID, to: "paid", events: [] }, pay_in_part: { from: UNPAID, to: "partially_paid", events: [] }, miss: { from: ["scheduled"], to: "missed", events: [] } },
  said: { pay: "paid", pay_in_part: "paid in part", miss: "missed" },
};
