// The apply.js widget's start (docs/apply-js.md): the fields of a new application a partner's page may send with
// its publishable key, and the handoff it gets back. No metadata and no introduction: those are the partner
// API's, behind a secret key.
import { z } from "zod";
import { applicationFieldsSchema } from "../applications/schemas";
import { requestString } from "../wire/request-string";
import { absoluteUrl, idOf, timestamp } from "../wire/response-schema";

export const startWidgetApplicationBodySchema = applicationFieldsSchema
  .pick({ business: true, amount_pence: true, term_months: true, purpose: true, product: true, applicant: true, redirect_uri: true, reference: true })
  .extend({ publishable_key: requestString().min(1).max(200) });

export type StartWidgetApplicationInput = Omit<z.output<typeof startWidgetApplicationBodySchema>, "publishable_key">;

export const applicationHandoffSchema = z
  .strictObject({
    id: idOf("app").meta({ description: "The application's id." }),
    object: z.literal("application_handoff"),
    livemode: z.boolean(),
    handoff_url: absoluteUrl().meta({ description: "The hosted journey, which the widget opens in its frame or sends the browser to." }),
    expires_at: timestamp(),
  })
  .meta({ id: "ApplicationHandoff", description: "An application the widget started, and where its applicant goes: nothing else of it." });
