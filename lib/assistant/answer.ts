// Answers one visitor question (spec 4.1 assistant rules, used by the support chat of 4.8): general questions on
// products, eligibility and costs from the bounded knowledge base; an account-specific question is handed off to
// sign-in without searching anything, since the assistant cannot see or act on accounts. Every answer is a
// stored entry's HTML or a fixed text: the question is never echoed, and no figure is made up here.
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
  /** Where a handoff sends the visitor: the sign-in host (SSO_URL) by default. */
  signInUrl?: string;
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

/**
 * Below this retrieval score nothing is close enough to answer. Scores are minisearch's BM25 with the title
 * boosted twice; one plain topic word found in an entry's text scores well above it, while fuzzy or prefix
 * matches of gibberish stay under it.
 */
export const ANSWER_SCORE_THRESHOLD = 4;

export function isAccountSpecific(question: string): boolean {
  return ACCOUNT_SPECIFIC_PATTERNS.some((pattern) => pattern.test(question));
}

function handoffAnswer(signInUrl: string): string {
  return (
    `<p>${escapeHtml("I can only answer general questions: I can't see or change accounts, applications or payments.")}</p>` +
    `<p>${escapeHtml("For help with your own account, please ")}<a href="${escapeHtml(signInUrl)}">sign in</a>${escapeHtml(" or contact our support team.")}</p>`
  );
}

const FALLBACK_ANSWER =
  "<p>Sorry, I don't have an answer to that. I can help with general questions about:</p>" +
  "<ul><li>our products: Business Loan, Flex and Slice</li><li>who can borrow (eligibility)</li><li>costs, rates and fees</li>" +
  "<li>how to apply and how decisions are made</li></ul>" +
  "<p>For anything about your own account, please sign in.</p>";

export async function answerQuestion(message: string, options: AnswerOptions = {}): Promise<AssistantAnswer> {
  const question = message.trim();
  if (isAccountSpecific(question)) {
    return { answerHtml: sanitizePageHtml(handoffAnswer(options.signInUrl ?? config().SSO_URL)), handoff: true, sources: [] };
  }
  const knowledgeBase = options.knowledgeBase ?? (await currentKnowledgeBase());
  const best = knowledgeBase.search(question)[0];
  if (!best || best.score < ANSWER_SCORE_THRESHOLD) {
    return { answerHtml: FALLBACK_ANSWER, handoff: false, sources: [] };
  }
  return { answerHtml: sanitizePageHtml(best.entry.answerHtml), handoff: false, sources: [best.entry.id] };
}
