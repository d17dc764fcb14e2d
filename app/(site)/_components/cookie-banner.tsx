"use client";
// The cookie banner: asks once, posts the choice to /public/v1/consent (spec 4.8, fail-open: the banner never waits
// on the answer), and remembers it in this browser with a random id that identifies no one. A new policy version
// asks again.
import { useEffect, useState } from "react";

const STORAGE_KEY = "cookie-consent";
export const COOKIE_POLICY_VERSION = "2026-11";

interface StoredChoice {
  analytics: boolean;
  marketing: boolean;
  policy_version: string;
  anonymous_id: string;
}

type BannerState = { kind: "unknown" } | { kind: "asking" } | { kind: "confirming"; accepted: boolean } | { kind: "done" };

function storedChoice(): StoredChoice | null {
  try {
    const stored = JSON.parse(window.localStorage.getItem(STORAGE_KEY) ?? "null") as StoredChoice | null;
    return stored?.policy_version === COOKIE_POLICY_VERSION ? stored : null;
  } catch {
    return null;
  }
}

function randomAnonymousId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

function recordChoice(accepted: boolean): void {
  const choice: StoredChoice = { analytics: accepted, marketing: accepted, policy_version: COOKIE_POLICY_VERSION, anonymous_id: storedChoice()?.anonymous_id ?? randomAnonymousId() };
  try {
    window.localStorage.setItem(STORAGE_KEY, JSON.stringify(choice));
  } catch {
    // Storage refused (a private window's quota): the choice still holds for this page and is still recorded.
  }
  void fetch("/public/v1/consent", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(choice) }).catch(() => undefined);
}

export function CookieBanner() {
  const [state, setState] = useState<BannerState>({ kind: "unknown" });
  useEffect(() => {
    setState(storedChoice() ? { kind: "done" } : { kind: "asking" });
  }, []);

  if (state.kind === "unknown" || state.kind === "done") return null;
  const choose = (accepted: boolean) => {
    recordChoice(accepted);
    setState({ kind: "confirming", accepted });
  };
  return (
    <section className="cookie-banner" aria-label="Cookies on this site">
      <div className="cookie-banner__inner">
        {state.kind === "asking" ? (
          <>
            <h2>Cookies on this site</h2>
            <p>
              We use cookies the site needs to work. We would also like to use analytics and marketing cookies to learn how
              the site is used and to measure our campaigns. <a href="/cookies">How we use cookies</a>.
            </p>
            <div className="actions">
              <button type="button" className="button" onClick={() => choose(true)}>
                Accept optional cookies
              </button>
              <button type="button" className="button button--secondary" onClick={() => choose(false)}>
                Reject optional cookies
              </button>
            </div>
          </>
        ) : (
          <>
            <p role="status">
              You have {state.accepted ? "accepted" : "rejected"} optional cookies. You can change this on the{" "}
              <a href="/cookies">cookies page</a> at any time.
            </p>
            <button type="button" className="button button--secondary" onClick={() => setState({ kind: "done" })}>
              Hide this message
            </button>
          </>
        )}
      </div>
    </section>
  );
}

/** On the cookies page: the choice this browser made, and the way to change it. */
export function CookieSettings() {
  const [accepted, setAccepted] = useState<boolean | null>(null);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    const choice = storedChoice();
    setAccepted(choice ? choice.analytics : null);
  }, []);
  const choose = (value: boolean) => {
    recordChoice(value);
    setAccepted(value);
    setSaved(true);
  };
  return (
    <section aria-labelledby="cookie-settings">
      <h2 id="cookie-settings">Your cookie settings</h2>
      <p role="status">
        {accepted === null ? "You have not chosen yet." : `You have ${accepted ? "accepted" : "rejected"} optional cookies.`}
        {saved ? " Your choice is saved." : ""}
      </p>
      <div className="actions">
        <button type="button" className="button" onClick={() => choose(true)}>
          Accept optional cookies
        </button>
        <button type="button" className="button button--secondary" onClick={() => choose(false)}>
          Reject optional cookies
        </button>
      </div>
    </section>
  );
}
