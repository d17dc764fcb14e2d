// Starting an application from the site's Apply page (docs/apply-directly.md): the site is its own first partner,
// so the answers go through the apply widget's service with the platform's own live publishable key, as a partner
// page's would, and the visitor is sent on to the hosted journey. A post must carry the page's CSRF token, equal
// to the `svc_csrf` cookie the page was served with (double submit), and, when the browser names its origin, come
// from the site.
import { startSiteApplication } from "../apply-widget/start";
import { db } from "../db";
import { ApiError } from "../errors";
import { authenticatePublishableKey } from "../keys/publishable";
import { assertFormFromOurSite } from "../wire/csrf";
import { validateDirectApplyForm, type DirectApplyErrors, type DirectApplyForm, type DirectApplyValues } from "./schemas";
import { ensureSiteProject } from "./site-project";

export type DirectApplyOutcome = { kind: "started"; handoffUrl: string } | { kind: "refused"; values: DirectApplyValues; errors: DirectApplyErrors };

/** 403 `csrf_token_invalid` unless the form's token is the page's cookie and the post comes from the site. */
export const assertApplyFormFromSite = assertFormFromOurSite;

let siteKey: Promise<string> | undefined;

/** The site's publishable key, read (or made) once per process; forgotten if reading it failed. */
function siteKeyOnce(): Promise<string> {
  if (!siteKey) {
    siteKey = ensureSiteProject(db()).then((project) => project.publishableKey);
    siteKey.catch(() => (siteKey = undefined));
  }
  return siteKey;
}

/** The site as the widget's caller: its key authenticated as any page's would be. */
async function siteCaller() {
  try {
    return await authenticatePublishableKey(await siteKeyOnce());
  } catch (error) {
    // Revoked or rolled by an operator since this process read it: read (or repair) it once more.
    if (!(error instanceof ApiError)) throw error;
    siteKey = undefined;
    return authenticatePublishableKey(await siteKeyOnce());
  }
}

export interface DirectApplyPost {
  now: Date;
  form: DirectApplyForm;
  /** The `svc_csrf` cookie the browser sent, and where it says the post comes from. */
  cookieToken: string | null;
  origin: string | null;
  host: string | null;
}

export async function startDirectApplication(options: DirectApplyPost): Promise<DirectApplyOutcome> {
  assertApplyFormFromSite({ formToken: options.form.csrf_token, cookieToken: options.cookieToken, origin: options.origin, host: options.host });
  const checked = validateDirectApplyForm(options.form);
  if (!checked.ok) return { kind: "refused", values: checked.values, errors: checked.errors };
  const { answers } = checked;
  const caller = await siteCaller();
  // Our own server starts it, as a partner's server would (no page origin): an ordinary hosted journey, which
  // the visitor walks in this window.
  const application = await startSiteApplication({
    tenant: caller.tenant,
    now: options.now,
    input: {
      business: { company_number: answers.companyNumber },
      amount_pence: answers.amountPence,
      term_months: answers.termMonths,
      applicant: { email: answers.email },
    },
  });
  return { kind: "started", handoffUrl: application.handoff_url };
}
