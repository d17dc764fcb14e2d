// What the sign-in pages (app/sso/interaction/[uid]) and proxy.ts read of an interaction, from the adapter's table
// (lib/oidc/artifacts.ts) without oidc-provider, which stays out of everything Next bundles.
import { z } from "zod";
import { config } from "../env";
import { requestString } from "../wire/request-string";
import { findInteraction, interactionExpired } from "./artifacts";
import { signInClientSummary } from "./clients";
import { isSignInScope, SCOPE_DESCRIPTIONS } from "./scopes";

/** The page's address: /sso/interaction/{uid}[?error=credentials]. */
export const interactionPageParamsSchema = z.strictObject({ uid: requestString().regex(/^[A-Za-z0-9_-]{1,64}$/) });
export const interactionPageQuerySchema = z.strictObject({ error: requestString().pipe(z.enum(["credentials"])) });

export type InteractionView =
  | { state: "expired" }
  | {
      state: "login" | "consent";
      clientName: string;
      /** What the person is asked to allow, in plain English, in the order asked. */
      scopeDescriptions: string[];
      /** Where the page's form posts. */
      action: string;
      /** Origins the form's redirects may end at: the client's redirect URIs' (its page's form-action). */
      formTargets: string[];
    };

/** The interaction `uid` as its page shows it, or null when there is none (or its client is gone). */
export async function interactionView(uid: string): Promise<InteractionView | null> {
  const interaction = await findInteraction(uid);
  if (!interaction) return null;
  if (interactionExpired(interaction)) return { state: "expired" };
  const client = await signInClientSummary(interaction.clientId);
  if (!client) return null;
  const step = interaction.prompt === "consent" ? "consent" : "login";
  return {
    state: step,
    clientName: client.name,
    scopeDescriptions: interaction.scopes.filter(isSignInScope).map((scope) => SCOPE_DESCRIPTIONS[scope]),
    action: `${config().SSO_URL}/interaction/${uid}/${step}`,
    formTargets: client.redirectOrigins,
  };
}
