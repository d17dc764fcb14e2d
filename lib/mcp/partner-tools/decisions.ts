// The decisioning tool (`mcp.read`): why an application's decision came out as it did.
import { z } from "zod";
import { readOwnApplicationWithDecision } from "../../applications/queries";
import { REASON_MESSAGES } from "../../decisions/serialize";
import { notFound } from "../../errors";
import { idOf, pence, text, timestamp } from "../../wire/response-schema";
import { formatPounds } from "../../money";
import { defineTool } from "../tools";
import { ACCESS, type PartnerCaller } from "./access";
import { applicationIdInput } from "./arguments";

const reasonSchema = z.strictObject({ code: text(), message: text() });
const explainDecisionOutput = z.strictObject({
  application_id: idOf("app"),
  decision_id: idOf("dec"),
  outcome: z.enum(["approved", "declined", "referred"]),
  requested_amount_pence: pence(),
  approved_amount_pence: pence(),
  apr_bps: z.int(),
  reasons: z.array(reasonSchema),
  conditions: z.array(z.strictObject({ code: text(), description: text() })),
  decided_by: text().meta({ description: "`sandbox`, `live` or `manual` (an underwriter resolved a referral)." }),
  decided_at: timestamp(),
  explanation: text(),
});

function explain(decision: { outcome: string; approvedAmountPence: number; aprBps: number; decidedBy: string }, requestedPence: number, reasons: z.output<typeof reasonSchema>[]): string {
  const engine =
    decision.decidedBy === "sandbox" ? " The sandbox engine decided it from the company number's last four digits (docs/sandbox.md)." : decision.decidedBy === "manual" ? " An underwriter decided it." : "";
  if (decision.outcome === "approved") {
    const amount = decision.approvedAmountPence === requestedPence ? `the ${formatPounds(requestedPence)} requested` : `${formatPounds(decision.approvedAmountPence)} of the ${formatPounds(requestedPence)} requested`;
    return `Approved for ${amount} at ${decision.aprBps / 100}% APR.${engine}`;
  }
  if (decision.outcome === "declined") return `Declined: ${reasons.map((reason) => reason.message).join(" ")}${engine}`;
  return `Referred to an underwriter, who will approve or decline it; nothing is needed from the applicant meanwhile.${engine}`;
}

const explainDecision = defineTool<PartnerCaller, typeof applicationIdInput, typeof explainDecisionOutput>({
  name: "explain_decision",
  alias: "ExplainDecision",
  title: "Explain a decision",
  description: "Why an application's credit decision came out as it did: the outcome, the stored reasons and conditions, and who decided.",
  input: applicationIdInput,
  output: explainDecisionOutput,
  access: ACCESS.decisioning,
  async run({ application_id }, { tenant }) {
    const application = await readOwnApplicationWithDecision(tenant, application_id);
    const decision = application.decision;
    if (!decision) throw notFound("decision for application", application_id);
    const reasons = decision.reasons.map((code) => ({ code, message: REASON_MESSAGES[code] ?? code }));
    const structured = {
      application_id,
      decision_id: decision.id,
      outcome: decision.outcome,
      requested_amount_pence: application.amountPence,
      approved_amount_pence: decision.approvedAmountPence,
      apr_bps: decision.aprBps,
      reasons,
      conditions: decision.conditions as Array<{ code: string; description: string }>,
      decided_by: decision.decidedBy,
      decided_at: decision.decidedAt.toISOString(),
      explanation: explain(decision, application.amountPence, reasons),
    };
    return { text: structured.explanation, structured };
  },
});

export const DECISIONING_TOOLS = [explainDecision];
