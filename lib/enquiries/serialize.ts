import type { Enquiry } from "../generated/prisma/client";

/** The enquiry object: the response to the visitor and the `enquiry.created` event's data.object. No contact details. */
export function serializeEnquiry(enquiry: Enquiry) {
  return {
    id: enquiry.id,
    object: "enquiry" as const,
    form: enquiry.form,
    dept: enquiry.dept,
    created_at: enquiry.createdAt.toISOString(),
  };
}
