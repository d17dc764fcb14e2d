// POST /public/v1/enquiries — record a public enquiry, lead or complaint (spec 4.8, 7.3); 201 the enquiry.
import { ENQUIRY_BODY_LIMIT_BYTES, createEnquiryRawBodySchema, parseCreateEnquiryBody } from "@/lib/enquiries/schemas";
import { createEnquiry } from "@/lib/enquiries/service";
import { created, defineRoute, endpoint } from "@/lib/http/route";
import { enquirySchema } from "@/lib/enquiries/schemas";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("public", "/enquiries", {
  POST: endpoint({
    summary: "Send an enquiry, lead or complaint",
    responses: { 201: enquirySchema },
    errors: ["form_required", "invalid_email", "invalid_dept", "invalid_value_type"],
    auth: { kind: "none" },
    body: createEnquiryRawBodySchema,
    bodyLimitBytes: ENQUIRY_BODY_LIMIT_BYTES,
    handler: async ({ body }) => created(await createEnquiry({ input: parseCreateEnquiryBody(body) })),
  }),
});
