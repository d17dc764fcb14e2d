// The operations tools (`ops.read`): what is waiting in the tenant's environment, and the site's enquiries.
// Counts only, nothing personal.
import { z } from "zod";
import { countApplications } from "../../applications/queries";
import { clock } from "../../clock";
import { countEnquiriesByForm } from "../../enquiries/queries";
import { text, timestamp } from "../../wire/response-schema";
import { countIdentityChecks } from "../../identity/queries";
import { countPayments } from "../../payments/queries";
import { countDisabledWebhookEndpoints, countPendingWebhookDeliveries } from "../../webhooks/queries";
import { defineTool } from "../tools";
import { ACCESS, type PartnerCaller } from "./access";
import { daysBefore, noArguments, windowInput } from "./arguments";

const queueStatusOutput = z.strictObject({
  applications_awaiting_decision: z.int().meta({ description: "Submitted, not yet decided." }),
  applications_in_review: z.int().meta({ description: "Referred to an underwriter." }),
  payments_pending: z.int(),
  identity_checks_in_review: z.int(),
  webhook_deliveries_pending: z.int(),
  webhook_endpoints_disabled: z.int(),
});

const queueStatus = defineTool<PartnerCaller, typeof noArguments, typeof queueStatusOutput>({
  name: "queue_status",
  alias: "QueueStatus",
  title: "Queue status",
  description: "What is waiting in this project's environment: applications awaiting a decision or in review, pending payments and identity reviews, webhook deliveries not yet made. Counts only.",
  input: noArguments,
  output: queueStatusOutput,
  access: ACCESS.ops,
  async run(_input, { tenant }) {
    const [awaiting, inReview, payments, identity, deliveries, disabled] = await Promise.all([
      countApplications(tenant, { status: "submitted" }),
      countApplications(tenant, { status: "in_review" }),
      countPayments(tenant, "pending"),
      countIdentityChecks(tenant, "review_required"),
      countPendingWebhookDeliveries(tenant),
      countDisabledWebhookEndpoints(tenant),
    ]);
    const structured = {
      applications_awaiting_decision: awaiting,
      applications_in_review: inReview,
      payments_pending: payments,
      identity_checks_in_review: identity,
      webhook_deliveries_pending: deliveries,
      webhook_endpoints_disabled: disabled,
    };
    return {
      text: `${awaiting} application(s) awaiting a decision, ${inReview} in review; ${payments} payment(s) pending; ${identity} identity check(s) in review; ${deliveries} webhook deliveries pending, ${disabled} endpoint(s) disabled.`,
      structured,
    };
  },
});

const enquiryListOutput = z.strictObject({
  since: timestamp(),
  total: z.int(),
  by_form: z.array(z.strictObject({ form: text(), dept: text(), count: z.int() })),
});

const enquiryList = defineTool<PartnerCaller, typeof windowInput, typeof enquiryListOutput>({
  name: "enquiry_list",
  alias: "EnquiryList",
  title: "Enquiry list",
  description: "Enquiries sent through the site's forms over the last days, counted by form and department. No names, addresses or messages.",
  input: windowInput,
  output: enquiryListOutput,
  access: ACCESS.ops,
  async run({ days }) {
    const since = daysBefore(clock.now(), days);
    const byForm = await countEnquiriesByForm(since);
    const total = byForm.reduce((sum, group) => sum + group.count, 0);
    const lines = byForm.map((group) => `${group.form} (${group.dept}): ${group.count}`);
    return { text: [`${total} enquiries in the last ${days} days.`, ...lines].join("\n"), structured: { since: since.toISOString(), total, by_form: byForm } };
  },
});

export const OPERATIONS_TOOLS = [queueStatus, enquiryList];
