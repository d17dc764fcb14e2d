import { z } from "zod";
import { type PaymentObject } from "../../lib/payments/serialize";
import { PAYMENT_FAILURE_CODES } from "../../lib/payments/schemas";
import { paymentTenant, recordBankAnswer } from "../../lib/accounts/payment-settlement";
import { notFound } from "../../lib/errors";
import { tenantNow } from "../../lib/tenant-clock";
import { parseFlags, type Command } from "../cli-kit";

/** The time now on the clock of the payment's own project and environment: the operator answers for whichever holds it. */
async function paymentNowOrThrow(id: string): Promise<Date> {
  const tenant = await paymentTenant(id);
  if (!tenant) throw notFound("payment", id);
  return tenantNow(tenant);
}

function summary(payment: PaymentObject): string {
  return `${payment.type} of ${payment.amount_pence} pence${payment.account_id ? ` on ${payment.account_id}` : ""}, ${payment.livemode ? "live" : "sandbox"}`;
}

export const paymentSettle: Command = {
  words: ["payment", "settle"],
  synopsis: "pay_... [--json]",
  description: "Record that the bank settled a provisioned or pending payment (sandbox or live): the ledger and balance follow.",
  options: {},
  positionals: 1,
  async run({ positionals, database, print }) {
    await database();
    const id = positionals[0]!;
    const payment = await recordBankAnswer({ id, now: await paymentNowOrThrow(id), answer: { outcome: "settled" } });
    print(`Payment ${payment.id} is settled (${summary(payment)}).`, payment);
  },
};

const failFlags = z.object({
  "failure-code": z.enum(PAYMENT_FAILURE_CODES, { error: `must be one of ${PAYMENT_FAILURE_CODES.join(", ")}` }).default("bank_rejected"),
});

export const paymentFail: Command = {
  words: ["payment", "fail"],
  synopsis: "pay_... [--failure-code CODE] [--json]",
  description: "Record that the bank failed a provisioned or pending payment (sandbox or live).",
  options: { "failure-code": { type: "string", value: "CODE", description: `Why: ${PAYMENT_FAILURE_CODES.join(", ")} (default: bank_rejected).` } },
  positionals: 1,
  async run({ positionals, values, database, print }) {
    const flags = parseFlags(failFlags, values);
    await database();
    const id = positionals[0]!;
    const payment = await recordBankAnswer({ id, now: await paymentNowOrThrow(id), answer: { outcome: "failed", failureCode: flags["failure-code"] } });
    print(`Payment ${payment.id} failed ${payment.failure_code} (${summary(payment)}).`, payment);
  },
};
