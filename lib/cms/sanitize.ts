// CMS page HTML is sanitised on the server when a page is saved (spec 2.10), so what the public ring serves is
// inert whatever an editor pasted. An allow-list, never a deny-list: anything not named here is dropped.
import { Marked } from "marked";
import sanitizeHtml from "sanitize-html";

const ALLOWED_TAGS = [
  "p", "h1", "h2", "h3", "h4", "ul", "ol", "li", "a", "strong", "em", "code", "pre", "blockquote",
  "table", "thead", "tbody", "tr", "th", "td", "br", "hr", "img",
];

const SANITIZE_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ALLOWED_TAGS,
  // `rel` is listed only so the transform below can set it; an editor's own `rel` is always replaced.
  allowedAttributes: { a: ["href", "title", "rel"], img: ["src", "alt", "title"] },
  // No javascript:, data: or vbscript: (sanitize-html compares schemes case-insensitively, after stripping
  // the whitespace and control characters browsers ignore).
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesByTag: {},
  allowedSchemesAppliedToAttributes: ["href", "src"],
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  // Dropped with their content, not just their tags: their text is code, markup or an embedded document.
  nonTextTags: ["script", "style", "textarea", "option", "noscript", "iframe", "object", "embed", "svg", "math", "template", "title", "xmp", "noembed", "noframes"],
  // A page's links open other sites without handing them this window (reverse tabnabbing) or a Referer.
  transformTags: { a: sanitizeHtml.simpleTransform("a", { rel: "noopener noreferrer" }) },
};

export function sanitizePageHtml(html: string): string {
  return sanitizeHtml(html, SANITIZE_OPTIONS);
}

// An instance of its own, so no other module's `marked.use(...)` changes how pages render.
const markdown = new Marked({ gfm: true });

/** Markdown to sanitised HTML. Raw HTML inside the Markdown goes through the same sanitiser. */
export function renderMarkdown(source: string): string {
  return sanitizePageHtml(markdown.parse(source, { async: false }));
}

/** The text of a Markdown document's first top-level `# ` heading, if it has one (its default title). */
export function markdownTitle(source: string): string | null {
  const heading = markdown.lexer(source).find((token) => token.type === "heading" && token.depth === 1);
  return heading?.type === "heading" ? heading.text.trim() : null;
}
