// Answers one visitor question (spec 4.1 assistant rules, used by the support chat of 4.8): general questions on
// products, eligibility and costs from the bounded knowledge base; an account-specific question is handed off to
// sign-in without searching anything, since the assistant cannot see or act on accounts; an attempt to change its
// instructions or to reach another customer's data gets one fixed refusal, whatever else it asks. Every answer is
// a stored entry's HTML or a fixed text: the question is never echoed, and no figure is made up here.
import { sanitizePageHtml } from "../cms/sanitize";
import { config } from "../env";
import { currentKnowledgeBase, escapeHtml, type KnowledgeBase } from "./knowledge-base";

export interface AssistantAnswer {
  /** Sanitised HTML. */
  answerHtml: string;
  /** True when the visitor should sign in for account-specific help. */
  handoff: boolean;
  /** Ids of the knowledge-base entries the answer came from (none for a handoff or the fallback). */
  sources: string[];
}

export interface AnswerOptions {
  /** The knowledge base to search: the live one (pricing configuration and published pages) by default. */
  knowledgeBase?: KnowledgeBase;
  /** Where a handoff sends the visitor: the borrower area's sign-in (`/account` on BASE_URL) by default. */
  signInUrl?: string;
  /** Where an answer about applying sends the visitor: the site's Apply page (`/apply` on BASE_URL) by default. */
  applyUrl?: string;
}

// Questions about the visitor's own business with us. Matching any of these hands off before retrieval, so a
// question such as "what is my balance" can never be answered from general content.
const ACCOUNT_WORDS = "accounts?|loans?|balances?|applications?|repayments?|payments?|statements?|instalments?|arrears|direct debits?|agreements?|facility|limit|plan|details|data|information|profile|email|address|bank details|password|login";
const ACCOUNT_SPECIFIC_PATTERNS: readonly RegExp[] = [
  new RegExp(`\\b(my|our|mine)\\s+(?:\\w+\\s+)?(?:${ACCOUNT_WORDS})\\b`, "i"),
  /\b(log\s*-?\s*in|logon|log\s+on|sign\s*-?\s*in|signin|password|passcode|two[-\s]?factor|2fa|locked\s+out|verification\s+code)\b/i,
  /\b(how\s+much\s+do\s+(i|we)\s+owe|what\s+do\s+(i|we)\s+owe|outstanding\s+balance|account\s+number|reference\s+number)\b/i,
  /\b(personal\s+data|subject\s+access|gdpr|delete\s+my|change\s+my|update\s+my|close\s+my|cancel\s+my)\b/i,
  /\b(was|were|am|is)\s+(i|we|my\s+\w+)\s+(approved|declined|accepted|rejected|funded)\b/i,
  /\bwhen\s+(is|will|does)\s+(my|our|the)\s+next\s+(payment|repayment|instalment|direct\s+debit)\b/i,
];

// Attempts to make the assistant step outside its rules: new instructions, its own prompt, a new persona. None of
// these is a question the knowledge base could answer, so refusing them loses nothing.
const INJECTION_PATTERNS: readonly RegExp[] = [
  /\b(ignore|disregard|forget|override|bypass|skip)\b.{0,40}\b(instructions?|prompts?|rules?|guidelines|guardrails|directions|programming|restrictions)\b/i,
  /\b(system|developer|hidden|initial|original)\s+(prompt|instructions?|message)\b/i,
  /\b(reveal|show|print|repeat|tell\s+me)\b.{0,20}\b(your|the)\s+(prompt|instructions?|rules|configuration)\b/i,
  /\b(you\s+are\s+now|from\s+now\s+on\s+you|pretend\s+(to\s+be|you\s+are)|act\s+as\s+(an?\s+)?(admin|administrator|developer|operator|underwriter|staff|system|root)|jailbreak|dan\s+mode|developer\s+mode)\b/i,
  /\bnew\s+instructions?\b/i,
];

// Requests for someone else's business with us: another customer's (or every customer's) data asked for, a named
// company's account, or who our customers are. "Can other companies apply?" asks for nothing of theirs and passes.
const OTHER_PARTY = /\b(another|other|someone\s+else'?s?|somebody\s+else'?s?|all\s+(of\s+)?your|every|a\s+different)\s+(customers?|clients?|borrowers?|compan(y|ies)|business(es)?|users?|applicants?|person|people)('s?)?(?=\W|$)/i;
const ASKING_FOR = /\b(show|give|list|send|share|see|look\s+up|find|access|check|download|export|what\s+(is|are|was|were)|how\s+much)\b/i;
const THEIR_DATA = /\b(details|data|balances?|accounts?|loans?|applications?|payments?|records|information|info|names|emails?|phone|address(es)?|statements?|owes?|owed|borrowed|status)\b/i;
const OTHER_CUSTOMER_PATTERNS: readonly RegExp[] = [
  /\b(customer|client|borrower|user)\s+(list|records|database|data)\b/i,
  /\b(list|name|who\s+are)\s+(all\s+)?(of\s+)?your\s+(customers|clients|borrowers|applicants)\b/i,
  /\b(balance|account|accounts|application|applications|loans?|payments?|details|data|records?|credit\s+file)\s+(of|for|belonging\s+to|held\s+by)\s+(company\s+(number\s+)?)?(\d{6,8}\b|[A-Z0-9][\w&'.-]*(\s+[A-Z0-9][\w&'.-]*){0,4}\s+(ltd|limited|llp|plc)\b(?!\s+(compan|liability|partnership)))/i,
  /\bwho\s+(else\s+)?(has|have|is|are)\s+(borrowed|applied|a\s+customer|customers|in\s+arrears)\b/i,
];

function asksForOtherCustomers(question: string): boolean {
  if (OTHER_CUSTOMER_PATTERNS.some((pattern) => pattern.test(question))) return true;
  return OTHER_PARTY.test(question) && ASKING_FOR.test(question) && THEIR_DATA.test(question);
}

// Questions about applying, answered with the how-to-apply entry and a link to the Apply page, whatever else scores.
const APPLY_PATTERN = /\b(how\s+(do|can|would|should)\s+(i|we)\s+apply|(can|could)\s+(i|we)\s+apply|where\s+(do|can)\s+(i|we)\s+apply|apply\s+(for|online|now|directly|today)|start\s+an?\s+application|get\s+started|sign\s+up\s+for)\b/i;

/**
 * Below this retrieval score nothing is close enough to answer. Scores are minisearch's BM25 with the title
 * boosted twice; one plain topic word found in an entry's text scores well above it, while fuzzy or prefix
 * matches of gibberish stay under it.
 */
export const ANSWER_SCORE_THRESHOLD = 4;

export function isAccountSpecific(question: string): boolean {
  return ACCOUNT_SPECIFIC_PATTERNS.some((pattern) => pattern.test(question));
}

export function mustBeRefused(question: string): boolean {
  return INJECTION_PATTERNS.some((pattern) => pattern.test(question)) || asksForOtherCustomers(question);
}

const REFUSAL_ANSWER =
  "<p>I can't help with that. I answer general questions about our products, who can borrow and what it costs, " +
  "from our published information only; I can't change how I work, and I can't see or share anyone's account, application or payments.</p>";

function applyLink(applyUrl: string): string {
  return `<p>${escapeHtml("Ready to start? ")}<a href="${escapeHtml(applyUrl)}">${escapeHtml("Apply online")}</a>${escapeHtml(": it takes a few minutes.")}</p>`;
}

function handoffAnswer(signInUrl: string): string {
  return (
    `<p>${escapeHtml("I can only answer general questions: I can't see or change accounts, applications or payments.")}</p>` +
    `<p>${escapeHtml("For help with your own account, please ")}<a href="${escapeHtml(signInUrl)}">sign in</a>${escapeHtml(" or contact our support team.")}</p>`
  );
}

const HOW_TO_APPLY_ENTRY = "curated:how-to-apply";
/** Answers after which a visitor's next step is to apply: they end with a link to the Apply page. */
const ENTRIES_LEADING_TO_APPLY = new Set([HOW_TO_APPLY_ENTRY, "curated:eligibility"]);

const FALLBACK_ANSWER =
  "<p>Sorry, I don't have an answer to that. I can help with general questions about:</p>" +
  "<ul><li>our products: Business Loan, Flex and Slice</li><li>who can borrow (eligibility)</li><li>costs, rates and fees</li>" +
  "<li>how to apply and how decisions are made</li></ul>" +
  "<p>For anything about your own account, please sign in.</p>";

// The answers are a bounded set (each entry, with or without the Apply link, the handoff per sign-in address), so
// each is sanitised once and kept, not on every question; the index is rebuilt at most every 30 s.
const SANITISED_ANSWERS_KEPT = 1_000;
const sanitisedAnswers = new Map<string, string>();

function sanitisedOnce(html: string): string {
  let sanitised = sanitisedAnswers.get(html);
  if (sanitised === undefined) {
    sanitised = sanitizePageHtml(html);
    if (sanitisedAnswers.size >= SANITISED_ANSWERS_KEPT) sanitisedAnswers.clear();
    sanitisedAnswers.set(html, sanitised);
  }
  return sanitised;
}

export async function answerQuestion(message: string, options: AnswerOptions = {}): Promise<AssistantAnswer> {
  const question = message.trim();
  if (mustBeRefused(question)) return { answerHtml: REFUSAL_ANSWER, handoff: false, sources: [] };
  if (isAccountSpecific(question)) {
    return { answerHtml: sanitisedOnce(handoffAnswer(options.signInUrl ?? `${config().BASE_URL}/account`)), handoff: true, sources: [] };
  }
  const knowledgeBase = options.knowledgeBase ?? (await currentKnowledgeBase());
  const applyUrl = options.applyUrl ?? `${config().BASE_URL}/apply`;
  const howToApply = APPLY_PATTERN.test(question) ? knowledgeBase.entries.find((entry) => entry.id === HOW_TO_APPLY_ENTRY) : undefined;
  const best = howToApply ? { entry: howToApply, score: Number.POSITIVE_INFINITY } : knowledgeBase.search(question)[0];
  if (!best || best.score < ANSWER_SCORE_THRESHOLD) {
    return { answerHtml: FALLBACK_ANSWER, handoff: false, sources: [] };
  }
  const entryHtml = ENTRIES_LEADING_TO_APPLY.has(best.entry.id) ? best.entry.answerHtml + applyLink(applyUrl) : best.entry.answerHtml;
  return { answerHtml: sanitisedOnce(entryHtml), handoff: false, sources: [best.entry.id] };
}
