"use client";
// The site assistant's chat panel (issue 29 item 7, spec 4.1): a launcher button that opens a non-modal panel with
// the conversation, a labelled question box and a Send button, all reachable and usable with the keyboard alone
// (Escape closes it and gives focus back to the launcher). It posts to POST /api/assistant/public with the page's
// `svc_csrf` cookie echoed in `X-CSRF-Token` (docs/site.md). The answers are HTML the server sanitised; the
// visitor's own words are only ever rendered as text. It stays off the pages that have a task of their own (the
// hosted journey, the payment page, sign-in, the borrower area, the partner dashboard and the API reference), and it
// is the only chat on the site's pages: the support widget (widget.js) is for the other site origins.
import { usePathname } from "next/navigation";
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import styles from "./assistant-panel.module.css";

const ENDPOINT = "/api/assistant/public";
const MAX_LENGTH = 500;
const HIDDEN_ON = [/^\/apply\/./, /^\/pay\//, /^\/sso(\/|$)/, /^\/account(\/|$)/, /^\/dashboard(\/|$)/, /^\/docs\/api(\/|$)/];

type NewEntry = { from: "visitor"; text: string } | { from: "assistant"; html: string } | { from: "error"; text: string };
type Entry = NewEntry & { id: number };

function csrfToken(): string | null {
  const pair = document.cookie.split("; ").find((cookie) => cookie.startsWith("svc_csrf="));
  return pair ? pair.slice("svc_csrf=".length) : null;
}

function refusalText(status: number, body: unknown, retryAfter: string | null): string {
  if (status === 429) {
    const seconds = Number(retryAfter);
    return `You are asking questions too quickly. Please try again${seconds > 0 ? ` in ${seconds} second${seconds === 1 ? "" : "s"}` : " shortly"}.`;
  }
  const error = (body as { error?: unknown } | null)?.error;
  return typeof error === "string" ? error : "Sorry, something went wrong. Please try again.";
}

export function AssistantPanel() {
  const pathname = usePathname();
  const [open, setOpen] = useState(false);
  const [entries, setEntries] = useState<Entry[]>([]);
  const [question, setQuestion] = useState("");
  const [waiting, setWaiting] = useState(false);
  const launcher = useRef<HTMLButtonElement>(null);
  const input = useRef<HTMLTextAreaElement>(null);
  const log = useRef<HTMLDivElement>(null);
  const nextId = useRef(0);
  const ids = useId();
  const panelId = `${ids}-panel`;
  const titleId = `${ids}-title`;
  const inputId = `${ids}-question`;
  const hintId = `${ids}-hint`;

  useEffect(() => {
    if (open) input.current?.focus();
  }, [open]);

  // The newest message is shown from its start: a long answer is read from the top, not its last line.
  useEffect(() => {
    const newest = log.current?.lastElementChild as HTMLElement | null | undefined;
    if (log.current && newest) log.current.scrollTop = newest.offsetTop - log.current.offsetTop;
  }, [entries]);

  if (HIDDEN_ON.some((pattern) => pattern.test(pathname ?? ""))) return null;

  const add = (entry: NewEntry) => {
    const id = nextId.current++;
    setEntries((current) => [...current, { ...entry, id }]);
  };

  function close() {
    setOpen(false);
    launcher.current?.focus();
  }

  async function ask(event: { preventDefault(): void }) {
    event.preventDefault();
    const message = question.trim();
    if (!message || waiting) return;
    add({ from: "visitor", text: message });
    setQuestion("");
    setWaiting(true);
    try {
      const response = await fetch(ENDPOINT, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": csrfToken() ?? "" },
        body: JSON.stringify({ message }),
      });
      const body = (await response.json().catch(() => null)) as { ok?: boolean; answer?: unknown } | null;
      if (response.ok && body?.ok === true && typeof body.answer === "string") add({ from: "assistant", html: body.answer });
      else add({ from: "error", text: refusalText(response.status, body, response.headers.get("Retry-After")) });
    } catch {
      add({ from: "error", text: "We could not reach the assistant. Check your connection and try again." });
    } finally {
      setWaiting(false);
      input.current?.focus();
    }
  }

  function onPanelKeyDown(event: KeyboardEvent) {
    if (event.key === "Escape") {
      event.preventDefault();
      close();
    }
  }

  function onQuestionKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    // Enter sends, as in any chat; Shift+Enter starts a new line.
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) void ask(event);
  }

  return (
    <aside className={styles.root} aria-label="Ask our assistant">
      <section id={panelId} className={styles.panel} role="dialog" aria-modal="false" aria-labelledby={titleId} hidden={!open} onKeyDown={onPanelKeyDown}>
        <header className={styles.header}>
          <h2 id={titleId} className={styles.title}>
            Ask a question
          </h2>
          <button type="button" className={styles.close} onClick={close} aria-label="Close the assistant">
            ×
          </button>
        </header>
        <div ref={log} className={styles.log} role="log" aria-live="polite" aria-label="Conversation" tabIndex={0}>
          <p className={styles.assistant}>
            Ask about our products, who can borrow, or what it costs. I can&apos;t see accounts, so please don&apos;t share personal or account
            details here.
          </p>
          {entries.map((entry) =>
            entry.from === "assistant" ? (
              <div key={entry.id} className={styles.assistant} dangerouslySetInnerHTML={{ __html: entry.html }} />
            ) : (
              <p key={entry.id} className={entry.from === "visitor" ? styles.visitor : styles.error}>
                {entry.from === "visitor" ? <span className="visually-hidden">You: </span> : null}
                {entry.text}
              </p>
            ),
          )}
          {waiting ? <p className={styles.waiting}>Finding an answer…</p> : null}
        </div>
        <form className={styles.form} onSubmit={(event) => void ask(event)}>
          <label htmlFor={inputId} className={styles.label}>
            Your question
          </label>
          <p id={hintId} className={styles.hint}>
            Up to {MAX_LENGTH} characters. Press Enter to send, Shift and Enter for a new line.
          </p>
          <textarea
            ref={input}
            id={inputId}
            className={styles.input}
            rows={3}
            maxLength={MAX_LENGTH}
            value={question}
            aria-describedby={hintId}
            onChange={(event) => setQuestion(event.target.value)}
            onKeyDown={onQuestionKeyDown}
          />
          <button type="submit" className={styles.send} disabled={waiting}>
            Send
          </button>
        </form>
      </section>
      <button ref={launcher} type="button" className={styles.launcher} aria-expanded={open} aria-controls={panelId} onClick={() => (open ? close() : setOpen(true))}>
        Ask a question
      </button>
    </aside>
  );
}
