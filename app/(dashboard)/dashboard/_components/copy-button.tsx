"use client";
// Copies a new secret to the clipboard; the secret stays on the page to select by hand where there is no script.
import { useState } from "react";

export function CopyButton({ value, label }: { value: string; label: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className="account-button account-button-secondary"
      onClick={() => {
        void navigator.clipboard.writeText(value).then(() => setCopied(true));
      }}
    >
      {copied ? "Copied" : label}
    </button>
  );
}
