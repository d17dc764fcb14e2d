"use client";
// The waiting page's own movement (docs/hosted-journey.md, "Waiting"): it asks where the application stands every
// few seconds and, once it has moved on (or gone to an underwriter), opens the journey where it now is. Without JavaScript the page's
// "Check for a decision" link does the same by hand.
import { useEffect } from "react";

export function WaitingPoller({ token, underReview, intervalMs }: { token: string; underReview: boolean; intervalMs: number }) {
  useEffect(() => {
    const timer = setInterval(async () => {
      const response = await fetch(`/apply/${token}/status`, { cache: "no-store" }).catch(() => null);
      if (!response?.ok) return;
      const status = (await response.json()) as { step: string; under_review: boolean };
      if (status.step !== "waiting" || status.under_review !== underReview) window.location.assign(`/apply/${token}`);
    }, intervalMs);
    return () => clearInterval(timer);
  }, [token, underReview, intervalMs]);
  return null;
}
