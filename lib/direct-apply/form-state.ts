// What the Apply page shows after a refused post (docs/apply-directly.md): the answers as typed and each field's
// refusal, carried to the page across the post-redirect-get in a short-lived cookie of the visitor's own
// browser (HttpOnly, SameSite=Strict, path /apply), never in the address, where an email would reach logs.
import { z } from "zod";
import { config } from "../env";
import { requestString } from "../wire/request-string";
import { DIRECT_APPLY_PATH } from "./links";
import type { DirectApplyOutcome } from "./start";
import { DIRECT_APPLY_FIELDS, type DirectApplyErrors, type DirectApplyValues } from "./schemas";

export const FORM_STATE_COOKIE = "svc_apply_form";
export const FORM_STATE_MAX_AGE_SECONDS = 600;
/** The page's address after a refusal: only then does it read the cookie, so a fresh visit starts blank. */
export const FORM_STATE_QUERY = "check";
export const applyPageQuerySchema = z.strictObject({ [FORM_STATE_QUERY]: requestString().max(10).optional() });

const fieldText = requestString().max(300);
const formStateSchema = z.strictObject({
  values: z.strictObject(Object.fromEntries(DIRECT_APPLY_FIELDS.map((field) => [field, fieldText])) as Record<(typeof DIRECT_APPLY_FIELDS)[number], typeof fieldText>),
  errors: z.strictObject(Object.fromEntries(DIRECT_APPLY_FIELDS.map((field) => [field, fieldText.optional()])) as Record<(typeof DIRECT_APPLY_FIELDS)[number], z.ZodOptional<typeof fieldText>>),
});

export interface DirectApplyFormState {
  values: DirectApplyValues;
  errors: DirectApplyErrors;
}

export function encodeFormState(state: DirectApplyFormState): string {
  return Buffer.from(JSON.stringify(state), "utf8").toString("base64url");
}

/** The state a refused post left, or null for anything else (a missing, stale or altered cookie). */
export function decodeFormState(encoded: string | undefined): DirectApplyFormState | null {
  if (!encoded) return null;
  try {
    const parsed = formStateSchema.safeParse(JSON.parse(Buffer.from(encoded, "base64url").toString("utf8")));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function stateCookie(value: string, maxAgeSeconds: number): string {
  const secure = new URL(config().BASE_URL).protocol === "https:";
  return `${FORM_STATE_COOKIE}=${value}; Path=${DIRECT_APPLY_PATH}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Strict${secure ? "; Secure" : ""}`;
}

/**
 * Where the browser goes after a post (303): into the journey, the refusals of any earlier try forgotten; or back
 * to the form, which shows what was refused.
 */
export function redirectAfterPost(outcome: DirectApplyOutcome): { location: string; setCookie: string } {
  if (outcome.kind === "started") return { location: outcome.handoffUrl, setCookie: stateCookie("", 0) };
  return {
    location: `${DIRECT_APPLY_PATH}?${FORM_STATE_QUERY}=1`,
    setCookie: stateCookie(encodeFormState({ values: outcome.values, errors: outcome.errors }), FORM_STATE_MAX_AGE_SECONDS),
  };
}
