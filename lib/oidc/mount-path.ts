// Which requests are the sign-in provider's: everything under SSO_PATH but the interaction pages themselves
// (GET /sso/interaction/{uid}), which are Next pages. Our HTTP server (scripts/http-server.ts) and the tests'
// server (tests/helpers/app-server.ts) both ask this before anything else. It imports nothing heavy, so a process
// that never serves a sign-in never loads the provider.
import { SSO_PATH } from "../env";

const INTERACTION_PAGE = new RegExp(`^${SSO_PATH}/interaction/[^/]+/?$`);

export function isSignInProviderRequest(method: string, url: string): boolean {
  const pathname = url.split("?", 1)[0]!;
  if (pathname !== SSO_PATH && !pathname.startsWith(`${SSO_PATH}/`)) return false;
  return !((method === "GET" || method === "HEAD") && INTERACTION_PAGE.test(pathname));
}
