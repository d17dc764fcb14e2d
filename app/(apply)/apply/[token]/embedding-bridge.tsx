"use client";
// The journey of an application the apply.js widget started (docs/apply-js.md), in the widget's frame on the
// partner's page: Escape asks the widget to close, and the done step tells the widget the journey is over, both by
// message to the one origin that started it (never "*"). Opened at the top level instead (the widget's redirect on
// small screens), the done step goes on to the redirect_uri, as a journey from handoff_url does.
import { useEffect } from "react";

export const COMPLETE_MESSAGE = "lending-apply:complete";
export const CLOSE_MESSAGE = "lending-apply:close";

export function EmbeddingBridge({ origin, applicationId, complete, redirect }: { origin: string; applicationId: string; complete: boolean; redirect: string | null }) {
  useEffect(() => {
    const framed = window.parent !== window;
    if (complete) {
      if (framed) window.parent.postMessage({ type: COMPLETE_MESSAGE, application_id: applicationId }, origin);
      else if (redirect) window.location.replace(redirect);
    }
    if (!framed) return;
    const askToClose = (event: KeyboardEvent) => {
      if (event.key === "Escape" && !event.defaultPrevented) window.parent.postMessage({ type: CLOSE_MESSAGE }, origin);
    };
    document.addEventListener("keydown", askToClose);
    return () => document.removeEventListener("keydown", askToClose);
  }, [origin, applicationId, complete, redirect]);
  return null;
}
