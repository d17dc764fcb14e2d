// The shown-once cookie's name and its expiry, apart from its sealing (shown-once.ts) so the proxy, which only
// forgets it, loads no cryptography or keys.
export const SHOWN_ONCE_COOKIE = "dash_shown_once";
export const SHOWN_ONCE_PATH = "/dashboard";

/** The `Set-Cookie` value that forgets it. */
export function shownOnceExpiry(secure: boolean): string {
  return `${SHOWN_ONCE_COOKIE}=; Path=${SHOWN_ONCE_PATH}; Max-Age=0; HttpOnly; SameSite=Strict${secure ? "; Secure" : ""}`;
}
