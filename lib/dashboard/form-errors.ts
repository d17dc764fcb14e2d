// A dashboard form whose answers are refused comes back to its page with each refusal beside its field and in an
// error summary at the top, the answers as typed kept (GOV.UK's pattern), rather than as a bare 422 page. The 303
// back carries them in a sealed cookie (lib/dashboard/sealed-cookie.ts) that the next view reads and the proxy
// forgets, like a new secret; never in the address, where what was typed would reach logs.
//
// A form's route takes every answer as a string (the body schema still refuses unknown fields); the route builder
// checks the CSRF token and the member first, then its form function the answers with `checkForm`, then calls the
// service, whose field-level refusals (`validation_failed` and the like, with `detail[].field`) `withFieldRefusals`
// also brings back.
import { z } from "zod";
import { ApiError } from "../errors";
import { requestString } from "../wire/request-string";
import type { AfterPost, FormPost } from "./form-request";
import { openSealedCookie, sealedCookie } from "./sealed-cookie";
import { FORM_ERRORS_COOKIE } from "./shown-once-cookie";

const PURPOSE = "dashboard refused form";
/** Each answer is kept up to this length: the cookie must stay under a browser's 4 KB. */
const KEPT_ANSWER_LENGTH = 600;

export interface FieldRefusal {
  field: string;
  message: string;
}

const refusedFormShape = {
  /** Which form on the page (a page may hold several: one Roll form per key). */
  form: requestString().max(100),
  values: z.record(requestString().max(100), requestString().max(KEPT_ANSWER_LENGTH)),
  errors: z.array(z.strictObject({ field: requestString().max(100), message: requestString().max(1000) })).max(50),
};

export type RefusedForm = z.output<z.ZodObject<typeof refusedFormShape>>;

/** A form's answers as its fields' schema reads them, or each field's first refusal, in the schema's order. */
export function checkForm<S extends z.ZodObject>(schema: S, answers: Record<string, unknown>): { ok: true; data: z.output<S> } | { ok: false; errors: FieldRefusal[] } {
  // A field left out of the post reads as left empty, so it gets the field's own "Enter …" message.
  const parsed = schema.safeParse(Object.fromEntries(Object.entries(answers).map(([field, value]) => [field, value ?? ""])));
  if (parsed.success) return { ok: true, data: parsed.data };
  const errors = new Map<string, string>();
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? "form");
    if (!errors.has(field)) errors.set(field, issue.message);
  }
  const order = Object.keys(schema.shape);
  return { ok: false, errors: [...errors].map(([field, message]) => ({ field, message })).sort((a, b) => order.indexOf(a.field) - order.indexOf(b.field)) };
}

/** A service's refusal of named fields (`detail[].field`, `enabled_events.2` read as `enabled_events`) among `fields`, or null. */
export function fieldRefusalsOf(error: unknown, fields: readonly string[]): FieldRefusal[] | null {
  if (!(error instanceof ApiError) || !error.detail?.length) return null;
  const refusals = error.detail.map((item) => ({ field: item.field?.split(".")[0] ?? "", message: item.message ?? error.message }));
  if (!refusals.every((refusal) => fields.includes(refusal.field))) return null;
  return refusals.filter((refusal, index) => refusals.findIndex((other) => other.field === refusal.field) === index);
}

/** The 303 back to `location` with the form's answers and refusals sealed for the member who posted. */
export async function backWithRefusals(
  post: Pick<FormPost<unknown>, "member" | "params" | "secure">,
  refused: { form: string; location: string; values: Record<string, string | undefined>; errors: FieldRefusal[] },
): Promise<AfterPost> {
  const values = Object.fromEntries(
    Object.entries(refused.values)
      .filter((entry): entry is [string, string] => entry[1] !== undefined)
      .map(([field, value]) => [field, value.slice(0, KEPT_ANSWER_LENGTH)]),
  );
  const setCookie = await sealedCookie(
    FORM_ERRORS_COOKIE,
    PURPOSE,
    { userId: post.member.userId, projectId: post.params.project, environment: post.params.environment, form: refused.form, values, errors: refused.errors },
    post.secure,
  );
  return { location: refused.location, setCookie };
}

/**
 * Runs the service call `act`; a refusal of the form's own fields comes back to the page (`backWithRefusals`), and
 * any other error is the error page it always was.
 */
export async function withFieldRefusals(
  post: Pick<FormPost<unknown>, "member" | "params" | "secure">,
  refused: { form: string; location: string; values: Record<string, string | undefined>; fields: readonly string[] },
  act: () => Promise<AfterPost>,
): Promise<AfterPost> {
  try {
    return await act();
  } catch (error) {
    const errors = fieldRefusalsOf(error, refused.fields);
    if (!errors) throw error;
    return backWithRefusals(post, { ...refused, errors });
  }
}

/** The refused form named `form` this view should show, if the cookie holds one for this member's view. */
export async function openRefusedForm(
  sealed: string | undefined,
  viewer: { userId: string; projectId: string; environment: string },
): Promise<RefusedForm | null> {
  const opened = await openSealedCookie(sealed, PURPOSE, refusedFormShape, viewer);
  return opened ? { form: opened.form, values: opened.values, errors: opened.errors } : null;
}
