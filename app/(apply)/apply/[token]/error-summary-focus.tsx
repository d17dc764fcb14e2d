"use client";
// Moves focus to the error summary once a refused step's page has loaded, so a screen reader reads the problems
// first and a keyboard starts from their links. Without JavaScript the summary is still the first thing in the form.
import { useEffect, useRef } from "react";

export function ErrorSummaryFocus() {
  const marker = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    marker.current?.closest<HTMLElement>("[role=alert]")?.focus();
  }, []);
  return <span ref={marker} hidden />;
}
