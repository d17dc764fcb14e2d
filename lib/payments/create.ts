// A new payment row with its `payment.created` event, in the caller's transaction. Its lifecycle:
// lib/payments/state-machine.ts.
import type { Payment, Prisma } from "../generated/prisma/client";
import { recordEvents } from "../events/events";
import { newId } from "../ids";
import { serializePayment } from "./serialize";
import type { TenantEnvironment } from "../tenant";

export interface NewPayment {
  projectId: string;
  environment: TenantEnvironment;
  accountId: string | null;
  type: Payment["type"];
  amountPence: number;
  reference: string | null;
  /** `pending` for money asked of a bank now; `provisioned` for a link waiting to be paid. */
  status: "pending" | "provisioned";
  /** A payment link's page token, form token, expiry and return address (lib/accounts/payment-links.ts). */
  link?: { linkToken: string; formToken: string; expiresAt: Date; redirectUri: string | null };
  metadata?: Record<string, string>;
}

/** Records a new payment with its `payment.created` event. */
export async function createPayment(transaction: Prisma.TransactionClient, data: NewPayment, now: Date): Promise<Payment> {
  const { link, metadata, ...fields } = data;
  const payment = await transaction.payment.create({
    data: { ...fields, ...link, metadata: metadata ?? {}, id: newId("payment"), failureCode: null, createdAt: now, updatedAt: now },
  });
  await recordEvents(transaction, [{ projectId: payment.projectId, environment: payment.environment, type: "payment.created", object: serializePayment(payment), createdAt: now }]);
  return payment;
}
