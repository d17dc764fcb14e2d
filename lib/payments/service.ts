// The payments API's reads (spec 4.4, 4.11), under the one tenancy rule (lib/tenant.ts): another project's
// payment is 404 `not_found` like an unknown id, the other environment's 401 `environment_mismatch`.
import type { z } from "zod";
import { db } from "../db";
import { notFound } from "../errors";
import type { Prisma } from "../generated/prisma/client";
import { paginate, type PageRequest } from "../wire/pagination";
import { tenantObjectOrThrow, tenantWhere, type Tenant } from "../tenant";
import type { listPaymentsQuerySchema } from "./schemas";
import { serializePayment } from "./serialize";

export async function retrievePayment({ tenant, id }: { tenant: Tenant; id: string }) {
  const payment = await db().payment.findFirst({ where: { id, projectId: tenant.projectId } });
  return serializePayment(tenantObjectOrThrow(tenant, payment, () => notFound("payment", id)));
}

export async function listPayments(options: { tenant: Tenant; query: z.output<typeof listPaymentsQuerySchema>; url: string }) {
  const { tenant, query } = options;
  const where: Prisma.PaymentWhereInput = {
    ...tenantWhere(tenant),
    ...(query.status ? { status: query.status } : {}),
    ...(query.account_id ? { accountId: query.account_id } : {}),
  };
  return paginate({
    kind: "payment",
    page: query satisfies PageRequest,
    url: options.url,
    fetch: (window) => db().payment.findMany({ where: { ...where, ...(window.id ? { id: window.id } : {}) }, orderBy: window.orderBy, take: window.take }),
    // The cursor must be one of the caller's payments in this environment; filters do not apply to it.
    exists: async (cursor) => (await db().payment.count({ where: { id: cursor, ...tenantWhere(tenant) } })) === 1,
    serialize: serializePayment,
  });
}
