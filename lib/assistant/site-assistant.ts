// The marketing site's assistant (spec 4.1 POST /api/assistant/public): one question, one answer from the same
// module as the support chat, with nothing kept. An account question's answer links to the borrower area's
// sign-in, a question about applying to the site's Apply page (the defaults of answerQuestion).
import { answerQuestion } from "./answer";
import type { AskSiteAssistantBody, SiteAssistantAnswer } from "./schemas";

export async function askSiteAssistant({ message }: AskSiteAssistantBody): Promise<SiteAssistantAnswer> {
  const answer = await answerQuestion(message);
  return { ok: true, answer: answer.answerHtml, ...(answer.handoff ? { handoff: true as const } : {}) };
}
