// The names of the cookies a dashboard form's 303 hands to the one page view after it (lib/dashboard/sealed-cookie.ts),
// and their expiry, apart from their sealing so the proxy, which only forgets them, loads no cryptography or keys.
export const SHOWN_ONCE_COOKIE = "dash_shown_once";
/** A refused form's answers and refusals (lib/dashboard/form-errors.ts). */
export const FORM_ERRORS_COOKIE = "dash_form_errors";
export const ONE_VIEW_COOKIES = [SHOWN_ONCE_COOKIE, FORM_ERRORS_COOKIE] as const;
export const ONE_VIEW_COOKIE_PATH = "/dashboard";

/** The `Set-Cookie` value that forgets the cookie `name`. */
export function oneViewCookieExpiry(name: (typeof ONE_VIEW_COOKIES)[number], secure: boolean): string {
  return `${name}=; Path=${ONE_VIEW_COOKIE_PATH}; Max-Age=0; HttpOnly; SameSite=Strict${secure ? "; Secure" : ""}`;
}
