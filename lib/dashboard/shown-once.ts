// A new secret is shown once (spec 2.7, 3.6): the form's handler answers 303 back to the page with the secret sealed
// in a cookie (lib/dashboard/sealed-cookie.ts: a minute at most, for the member who made it). The proxy expires the
// cookie on the very next page view that carries it (proxy.ts), so that view shows the secret and a reload does not.
import { z } from "zod";
import { requestString } from "../wire/request-string";
import { openSealedCookie, sealedCookie, type SealedFor } from "./sealed-cookie";
import { SHOWN_ONCE_COOKIE } from "./shown-once-cookie";

export { SHOWN_ONCE_COOKIE } from "./shown-once-cookie";

const PURPOSE = "dashboard shown-once secret";

/**
 * What was made: a key (`key_created`, `key_rolled`: the successor, with the predecessor and its end) or a webhook
 * endpoint's signing secret (`webhook_endpoint_created`, `webhook_secret_rolled`: with when the old secret stops
 * signing). `objectId` is the key's or the endpoint's id.
 */
export const SHOWN_ONCE_KINDS = ["key_created", "key_rolled", "webhook_endpoint_created", "webhook_secret_rolled"] as const;

const shownOnceShape = {
  kind: z.enum(SHOWN_ONCE_KINDS),
  objectId: requestString(),
  secret: requestString(),
  predecessorId: requestString().optional(),
  predecessorExpiresAt: requestString().optional(),
};

export type ShownOnce = SealedFor & z.output<z.ZodObject<typeof shownOnceShape>>;

export function shownOnceCookie(value: ShownOnce, secure: boolean): Promise<string> {
  return sealedCookie(SHOWN_ONCE_COOKIE, PURPOSE, value, secure);
}

/** What the cookie holds, if it is ours, unexpired, and for this member's view of this project and environment. */
export function openShownOnce(sealed: string | undefined, viewer: { userId: string; projectId: string; environment: string }): Promise<ShownOnce | null> {
  return openSealedCookie(sealed, PURPOSE, shownOnceShape, viewer);
}
