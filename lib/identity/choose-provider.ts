// Which identity provider answers a check: the sandbox always follows the sandbox rules; live checks go to the
// provider IDENTITY_PROVIDER names, and there is none until one is configured (docs/identity.md).
import { config } from "../env";
import { HttpIdentityProvider } from "./http-provider";
import type { IdentityProvider } from "./provider";
import { SandboxIdentityProvider } from "./sandbox-provider";
import type { TenantEnvironment } from "../tenant";

const sandboxProvider = new SandboxIdentityProvider();
let liveProvider: IdentityProvider | undefined;

/**
 * The provider for an environment, or null when live has none configured. Unlike the company registry, live
 * never falls back to the sandbox rules by itself: they would verify anyone.
 */
export function identityProviderFor(environment: TenantEnvironment): IdentityProvider | null {
  if (environment === "sandbox") return sandboxProvider;
  const settings = config();
  if (settings.IDENTITY_PROVIDER === "sandbox") return sandboxProvider;
  if (settings.IDENTITY_PROVIDER !== "http") return null;
  liveProvider ??= new HttpIdentityProvider({ url: settings.IDENTITY_PROVIDER_URL!, apiKey: settings.IDENTITY_PROVIDER_API_KEY });
  return liveProvider;
}
