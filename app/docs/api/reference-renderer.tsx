"use client";
// Mounts Scalar (served from our origin at /docs/api/reference.js) into an element React leaves empty, after
// hydration, and hides the server-rendered index once the full reference is showing. Without JavaScript, or
// if the script fails, the index stays.
import { useEffect, useRef, useState, type ReactNode } from "react";

declare global {
  interface Window {
    Scalar?: { createApiReference: (element: HTMLElement, configuration: unknown) => unknown };
  }
}

const RENDERER_SCRIPT = "/docs/api/reference.js";

/** Scalar's code samples and long lists scroll without taking focus, and its copy buttons are icons alone. */
const SCROLLING_REGIONS = ".overflow-x-auto, .endpoints, [class*='max-h-']";
const UNLABELLED_COPY_BUTTONS = "button.scalar-code-copy:not([aria-label])";

/** Keeps what Scalar renders usable by keyboard and screen reader (axe: scrollable-region-focusable, button-name). */
function patchAccessibility(root: HTMLElement): () => void {
  const patch = () => {
    for (const region of root.querySelectorAll<HTMLElement>(SCROLLING_REGIONS)) if (!region.hasAttribute("tabindex")) region.tabIndex = 0;
    for (const button of root.querySelectorAll<HTMLElement>(UNLABELLED_COPY_BUTTONS)) button.setAttribute("aria-label", "Copy code");
  };
  patch();
  const observer = new MutationObserver(patch);
  observer.observe(root, { childList: true, subtree: true });
  return () => observer.disconnect();
}

function loadRenderer(): Promise<void> {
  if (window.Scalar) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = RENDERER_SCRIPT;
    script.onload = () => resolve();
    script.onerror = () => reject(new Error(`${RENDERER_SCRIPT} did not load`));
    document.head.append(script);
  });
}

export function ReferenceRenderer({ configuration, children }: { configuration: unknown; children: ReactNode }) {
  const mountPoint = useRef<HTMLDivElement>(null);
  const [mounted, setMounted] = useState(false);

  useEffect(() => {
    let cancelled = false;
    let stopObserving = () => {};
    loadRenderer()
      .then(() => {
        if (cancelled || !mountPoint.current || !window.Scalar) return;
        window.Scalar.createApiReference(mountPoint.current, configuration);
        stopObserving = patchAccessibility(mountPoint.current);
        setMounted(true);
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
      stopObserving();
    };
  }, [configuration]);

  return (
    <>
      {mounted ? (
        <header>
          <h1 className="visually-hidden">API reference</h1>
        </header>
      ) : null}
      <div hidden={mounted}>{children}</div>
      <div ref={mountPoint} />
    </>
  );
}
