// The sign-in and consent forms' posts (POST /sso/interaction/{uid}/login and …/consent), answered in our node
// mount with oidc-provider's interaction API. Each: the ticket (the interaction) must exist and be under 120 s old
// (spec 5.3), the body is a strict form, and the answer is a 303 back into the provider or to the form again.
// A cross-site post carries no interaction cookie (SameSite=Lax), so it cannot finish anyone's interaction.
import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type Provider from "oidc-provider";
import type { z } from "zod";
import { config } from "../env";
import { ApiError, ERROR_CATALOGUE, notFound, renderErrorPage } from "../errors";
import { rateLimiter } from "../ratelimit/limiter";
import { scalePolicy, SIGN_IN_ADDRESS_LIMIT, SIGN_IN_EMAIL_LIMIT } from "../ratelimit/policies";
import { clientAddress } from "../wire/client-address";
import { findInteraction, interactionExpired } from "./artifacts";
import { signInClientSummary } from "./clients";
import { accessDeniedPage, providerPagePolicy, ticketExpiredPage, tooManyAttemptsPage } from "./pages";
import { interactionUrl } from "./provider";
import { consentFormSchema, signInFormSchema } from "./schemas";
import { authenticateSignInUser } from "./users";

const FORM_LIMIT_BYTES = 8 * 1024;
/** Spec 7.4: the sign-in provider answers a person who declined consent with 403 `access_denied`. */
const ACCESS_DENIED_STATUS = 403;

export interface InteractionPost {
  uid: string;
  step: "login" | "consent";
}

function sendPage(response: ServerResponse, status: number, html: string, headers: Record<string, string>): void {
  response.writeHead(status, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff", ...headers });
  response.end(html);
}

function sendError(response: ServerResponse, error: ApiError, correlationId: string): void {
  const rendered = renderErrorPage(error, correlationId);
  sendPage(response, rendered.status, rendered.body, rendered.headers);
}

function sendTicketExpired(response: ServerResponse): void {
  sendPage(response, ERROR_CATALOGUE.sso_ticket_expired.status, ticketExpiredPage(), { "Content-Security-Policy": providerPagePolicy() });
}

function redirect(response: ServerResponse, location: string): void {
  response.writeHead(303, { Location: location, "Cache-Control": "no-store", "Content-Length": "0" });
  response.end();
}

async function readForm<S extends z.ZodType>(request: IncomingMessage, schema: S): Promise<z.output<S> | null> {
  if (!String(request.headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded")) return null;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > FORM_LIMIT_BYTES) return null;
    chunks.push(chunk as Buffer);
  }
  const parsed = schema.safeParse(Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString("utf8"))));
  return parsed.success ? parsed.data : null;
}

/** The address our server stamped on the request, read as the route handlers read it. */
function addressOf(request: IncomingMessage): string {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) if (typeof value === "string") headers.set(name, value);
  return clientAddress(new Request("http://sign-in.invalid/", { headers }));
}

/** Spends one attempt from the address's bucket and the email's: the longer wait when either is empty. */
async function attemptRefusedFor(request: IncomingMessage, email: string): Promise<number | null> {
  const limiter = rateLimiter();
  const scale = config().RATE_LIMIT_SCALE;
  // The email keys its bucket only as a hash: the rate-limit store holds no personal data.
  const emailKey = createHash("sha256").update(email.trim().toLowerCase()).digest("base64url");
  const decisions = await Promise.all([
    limiter.limit(scalePolicy(SIGN_IN_ADDRESS_LIMIT, scale), addressOf(request)),
    limiter.limit(scalePolicy(SIGN_IN_EMAIL_LIMIT, scale), emailKey),
  ]);
  const refused = decisions.filter((decision) => !decision.allowed);
  return refused.length === 0 ? null : Math.max(...refused.map((decision) => decision.retryAfterMs));
}

export async function handleInteractionPost(provider: Provider, request: IncomingMessage, response: ServerResponse, post: InteractionPost, correlationId: string): Promise<void> {
  const interaction = await findInteraction(post.uid);
  // The page a person gets for a link that names nothing; the uid is not echoed.
  if (!interaction) return sendError(response, notFound("sign-in"), correlationId);
  if (interactionExpired(interaction)) return sendTicketExpired(response);

  let details: Awaited<ReturnType<Provider["interactionDetails"]>>;
  try {
    details = await provider.interactionDetails(request, response);
  } catch {
    // No interaction cookie (another browser, or one that dropped it when the ticket ran out): start again.
    return sendTicketExpired(response);
  }
  if (details.uid !== post.uid || details.prompt.name !== post.step) {
    return sendError(response, new ApiError("conflict", { message: "This step of signing in is already done. Go back to the service you came from and start again." }), correlationId);
  }
  if (post.step === "login") return finishLogin(provider, request, response, post.uid, correlationId);
  return finishConsent(provider, request, response, details, correlationId);
}

async function finishLogin(provider: Provider, request: IncomingMessage, response: ServerResponse, uid: string, correlationId: string): Promise<void> {
  const form = await readForm(request, signInFormSchema);
  if (!form) return sendError(response, new ApiError("invalid_request", { message: "The sign-in form was not sent as expected. Go back and try again." }), correlationId);
  const retryAfterMs = await attemptRefusedFor(request, form.email);
  if (retryAfterMs !== null) {
    const retryAfterSeconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
    const interaction = await findInteraction(uid);
    const client = interaction ? await signInClientSummary(interaction.clientId) : null;
    return sendPage(response, 429, tooManyAttemptsPage({ action: `${interactionUrl(uid)}/login`, retryAfterSeconds }), {
      "Retry-After": String(retryAfterSeconds),
      "Content-Security-Policy": providerPagePolicy(client?.redirectOrigins ?? []),
    });
  }
  const accountId = await authenticateSignInUser(form.email, form.password);
  // The same answer for an unknown email and a wrong password: the page does not say which was wrong.
  if (!accountId) return redirect(response, `${interactionUrl(uid)}?error=credentials`);
  await provider.interactionFinished(request, response, { login: { accountId } }, { mergeWithLastSubmission: false });
}

type InteractionDetails = Awaited<ReturnType<Provider["interactionDetails"]>>;

async function finishConsent(provider: Provider, request: IncomingMessage, response: ServerResponse, details: InteractionDetails, correlationId: string): Promise<void> {
  const form = await readForm(request, consentFormSchema);
  if (!form) return sendError(response, new ApiError("invalid_request", { message: "The consent form was not sent as expected. Go back and try again." }), correlationId);
  if (form.decision === "deny") {
    const continueTo = await provider.interactionResult(request, response, { error: "access_denied", error_description: "The user declined to share their details." }, { mergeWithLastSubmission: true });
    const client = await signInClientSummary(String(details.params.client_id));
    return sendPage(response, ACCESS_DENIED_STATUS, accessDeniedPage({ clientName: client?.name ?? "the service", continueTo }), {
      "Content-Security-Policy": providerPagePolicy(),
    });
  }
  const accountId = details.session?.accountId;
  const clientId = String(details.params.client_id);
  const grant = details.grantId ? await provider.Grant.find(details.grantId) : new provider.Grant({ accountId, clientId });
  if (!grant) return sendTicketExpired(response);
  const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(" "));
  if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
  const grantId = await grant.save();
  await provider.interactionFinished(request, response, { consent: { grantId } }, { mergeWithLastSubmission: true });
}
