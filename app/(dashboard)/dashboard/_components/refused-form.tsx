// A refused form on its page (lib/dashboard/form-errors.ts): the error summary at the top, linking to each field,
// and each message beside its field; the page reads the refusal from the cookie the post's 303 left.
import type { Metadata } from "next";
import { cookies } from "next/headers";
import { signedInUserIdOfPage } from "@/app/_auth/signed-in-user";
import type { dashboardParamsSchema } from "@/lib/dashboard/schemas";
import type { PageValues } from "@/lib/wire/page-values";
import { FORM_ERRORS_COOKIE } from "@/lib/dashboard/shown-once-cookie";
import { openRefusedForm, type RefusedForm } from "@/lib/dashboard/form-errors";
import { ErrorSummaryFocus } from "@/app/(site)/apply/error-summary-focus";

export type { RefusedForm };

/** The refused form this member's view of this project and environment should show, if any. */
export async function refusedFormOf(viewer: { userId: string; project: string; environment: string }): Promise<RefusedForm | null> {
  return openRefusedForm((await cookies()).get(FORM_ERRORS_COOKIE)?.value, { userId: viewer.userId, projectId: viewer.project, environment: viewer.environment });
}

/** The page's title, with GOV.UK's "Error: " in front when a form on it was refused. */
export const titleWith = (title: string, refused: RefusedForm | null) => (refused && refused.errors.length > 0 ? `Error: ${title}` : title);

/**
 * A dashboard page's metadata: its title, with "Error: " when the refused form the viewer's cookie holds is one of
 * this page's (`isOurs`), and never indexed.
 */
export async function refusedFormMetadata(
  title: string,
  { project, environment }: PageValues<typeof dashboardParamsSchema.shape>,
  isOurs: (refused: RefusedForm) => boolean = () => true,
): Promise<Metadata> {
  const userId = await signedInUserIdOfPage();
  const refused = project && environment && userId ? await refusedFormOf({ userId, project, environment }) : null;
  return { title: titleWith(title, refused && isOurs(refused) ? refused : null), robots: { index: false, follow: false } };
}

/** A field's aria attributes: invalid, and described by its message (and `describedBy` besides), when refused. */
export function refusedAria(message: string | undefined, errorId: string, describedBy?: string) {
  const described = [describedBy, message ? errorId : undefined].filter(Boolean).join(" ");
  return { "aria-invalid": message ? (true as const) : undefined, "aria-describedby": described || undefined };
}

/** The refusals of `form` (or nothing), keyed by field. */
export function refusalsOf(refused: RefusedForm | null, form: string): { errors: Record<string, string>; values: Record<string, string> } | null {
  if (!refused || refused.form !== form) return null;
  return { errors: Object.fromEntries(refused.errors.map((error) => [error.field, error.message])), values: refused.values };
}

/** The error summary: "There is a problem", then a link to each refused field (`fieldId` names its input's id). */
export function ErrorSummary({ refused, labels, fieldId }: { refused: RefusedForm | null; labels: Record<string, string>; fieldId: (field: string) => string }) {
  if (!refused || refused.errors.length === 0) return null;
  return (
    <div className="dashboard-error-summary" role="alert" aria-labelledby="error-summary-title" tabIndex={-1}>
      <h2 id="error-summary-title">There is a problem</h2>
      <ul>
        {refused.errors.map((error) => (
          <li key={error.field}>
            <a href={`#${fieldId(error.field)}`}>{labels[error.field] ? `${labels[error.field]}: ${error.message}` : error.message}</a>
          </li>
        ))}
      </ul>
      <ErrorSummaryFocus />
    </div>
  );
}

/** A field's message, beside it (give its id to the input's aria-describedby). */
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p className="dashboard-field-error" id={id}>
      <span className="visually-hidden">Error: </span>
      {message}
    </p>
  );
}
