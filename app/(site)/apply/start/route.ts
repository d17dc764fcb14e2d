// POST /apply/start — the site's Apply page posts here, as HTML forms post, without JavaScript
// (docs/apply-directly.md): a started application sends the browser into its hosted journey (303 to its handoff
// URL); refused answers send it back to the form, which shows each refusal. The page's CSRF token guards it.
import { redirectAfterPost } from "@/lib/direct-apply/form-state";
import { directApplyFormSchema } from "@/lib/direct-apply/schemas";
import { startDirectApplication } from "@/lib/direct-apply/start";
import { defineRoute, endpoint } from "@/lib/http/route";
import { csrfCookieOf } from "@/lib/wire/csrf";
import { DIRECT_APPLY_FORM_LIMIT } from "@/lib/ratelimit/policies";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("site", "/apply/start", {
  POST: endpoint({
    summary: "Start an application from the site's Apply page",
    body: directApplyFormSchema,
    bodyFormat: "form",
    errorFormat: "page",
    auth: { kind: "none", addressLimit: DIRECT_APPLY_FORM_LIMIT },
    responses: { 303: null },
    errors: ["csrf_token_invalid", "origin_not_allowed", "service_unavailable"],
    handler: async ({ request, now, body }) => {
      const outcome = await startDirectApplication({
        now,
        form: body,
        cookieToken: csrfCookieOf(request),
        origin: request.headers.get("origin"),
        host: request.headers.get("host"),
      });
      const { location, setCookie } = redirectAfterPost(outcome);
      return new Response(null, { status: 303, headers: { location, "set-cookie": setCookie, "cache-control": "no-store" } });
    },
  }),
});
