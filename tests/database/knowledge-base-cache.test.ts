// The live knowledge base (lib/assistant/knowledge-base.ts) re-reads its sources at most every 30 seconds of the
// platform clock, and at once when the clock is set back before its last read. Runs in a database of its own:
// it publishes pages, which the knowledge base of every file running alongside would otherwise pick up.
import { expect, it } from "vitest";
import { currentKnowledgeBase, forgetCachedKnowledgeBase, type KnowledgeBase } from "@/lib/assistant/knowledge-base";
import { freezeClock } from "@/lib/clock";
import { savePage } from "@/lib/cms/service";


const pagesIn = (knowledgeBase: KnowledgeBase) => [...new Set(knowledgeBase.entries.flatMap((entry) => (entry.source === "cms" ? [entry.id.split(":")[1]] : [])))];

it("keeps its sources for 30 seconds of the platform clock, then rereads them", async () => {
  const time = freezeClock("2030-02-01T09:00:00.000Z");
  forgetCachedKnowledgeBase();
  const first = await currentKnowledgeBase();
  expect(pagesIn(first)).not.toContain("opening-hours");
  await savePage({ key: "opening-hours", title: "Opening hours", format: "markdown", source: "# Opening hours\n\nWe answer every weekday.\n", publish: true });

  time.advance(29_999);
  expect(await currentKnowledgeBase()).toBe(first);

  time.advance(1);
  expect(pagesIn(await currentKnowledgeBase())).toContain("opening-hours");
});

it("rereads its sources when the clock is set back before its last read", async () => {
  const time = freezeClock("2030-03-01T09:00:00.000Z");
  forgetCachedKnowledgeBase();
  expect(pagesIn(await currentKnowledgeBase())).not.toContain("holidays");
  await savePage({ key: "holidays", title: "Holidays", format: "markdown", source: "# Holidays\n\nClosed on bank holidays.\n", publish: true });

  time.set("2030-02-28T09:00:00.000Z");
  expect(pagesIn(await currentKnowledgeBase())).toContain("holidays");
});
