// CMS page sanitising (spec 2.10: `html` is server-sanitised): script-bearing markup comes out inert, from raw
// HTML and from Markdown alike, and the allowed content tags survive exactly.
import { describe, expect, it } from "vitest";
import { markdownTitle, renderMarkdown, sanitizePageHtml } from "@/lib/cms/sanitize";

describe("sanitizePageHtml removes script-bearing markup", () => {
  it.each([
    ["a script element and its code", `<p>Hi</p><script>alert(1)</script>`, `<p>Hi</p>`],
    ["an event handler on an image", `<img src=x onerror=alert(1)>`, `<img src="x" />`],
    ["a javascript: link", `<a href="javascript:alert(1)">x</a>`, `<a rel="noopener noreferrer">x</a>`],
    ["a mixed-case javascript: link", `<a href="JaVaScRiPt:alert(1)">x</a>`, `<a rel="noopener noreferrer">x</a>`],
    ["a javascript: link hidden by whitespace and a tab", `<a href=" java\tscript:alert(1)">x</a>`, `<a rel="noopener noreferrer">x</a>`],
    ["a javascript: link spelled with an entity", `<a href="&#106;avascript:alert(1)">x</a>`, `<a rel="noopener noreferrer">x</a>`],
    ["a vbscript: link", `<a href="vbscript:msgbox(1)">x</a>`, `<a rel="noopener noreferrer">x</a>`],
    ["an svg with onload and a nested script", `<svg onload=alert(1)><script>alert(2)</script></svg><p>after</p>`, `<p>after</p>`],
    ["an iframe and its fallback text", `<iframe src="https://evil.example/">fallback</iframe>`, ``],
    ["a style element", `<style>body{display:none}</style><p>x</p>`, `<p>x</p>`],
    ["a data: image", `<img src="data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=" alt="a">`, `<img alt="a" />`],
    ["a data: link", `<a href="data:text/html,<script>alert(1)</script>">x</a>`, `<a rel="noopener noreferrer">x</a>`],
    ["a protocol-relative link", `<a href="//evil.example/">x</a>`, `<a rel="noopener noreferrer">x</a>`],
    ["style and event-handler attributes", `<p style="position:fixed" onclick="steal()" onmouseover="x()">Hi</p>`, `<p>Hi</p>`],
    ["forms and inputs", `<form action="https://evil.example/"><input name="password"><button>Go</button></form>`, `Go`],
    ["object and embed", `<object data="x.swf"></object><embed src="x.swf"><p>ok</p>`, `<p>ok</p>`],
  ])("removes %s", (_name, input, expected) => {
    expect(sanitizePageHtml(input)).toBe(expected);
  });

  it("replaces an editor's own rel and drops target on links", () => {
    expect(sanitizePageHtml(`<a href="https://example.com/" rel="opener" target="_blank">e</a>`)).toBe(
      `<a href="https://example.com/" rel="noopener noreferrer">e</a>`,
    );
  });
});

describe("sanitizePageHtml keeps allowed content exactly", () => {
  it("keeps headings, paragraphs, emphasis, lists, quotes, code and rules", () => {
    const html =
      "<h1>One</h1><h2>Two</h2><h3>Three</h3><h4>Four</h4><p>Text <strong>bold</strong> <em>it</em> <code>x</code><br />next</p>" +
      "<ul><li>a</li></ul><ol><li>b</li></ol><blockquote><p>q</p></blockquote><pre><code>y &lt; z</code></pre><hr />";
    expect(sanitizePageHtml(html)).toBe(html);
  });

  it("keeps tables", () => {
    const html = "<table><thead><tr><th>Term</th></tr></thead><tbody><tr><td>12 weeks</td></tr></tbody></table>";
    expect(sanitizePageHtml(html)).toBe(html);
  });

  it("keeps https, http, mailto and relative links with their title, adding rel", () => {
    expect(
      sanitizePageHtml(`<a href="https://example.com/a?b=1" title="T">s</a><a href="http://example.com">h</a><a href="mailto:help@example.co.uk">m</a><a href="/faq">f</a>`),
    ).toBe(
      `<a href="https://example.com/a?b=1" title="T" rel="noopener noreferrer">s</a>` +
        `<a href="http://example.com" rel="noopener noreferrer">h</a>` +
        `<a href="mailto:help@example.co.uk" rel="noopener noreferrer">m</a>` +
        `<a href="/faq" rel="noopener noreferrer">f</a>`,
    );
  });

  it("keeps an https image with its alt and title", () => {
    expect(sanitizePageHtml(`<img src="https://example.com/x.png" alt="A" title="T" width="9">`)).toBe(
      `<img src="https://example.com/x.png" alt="A" title="T" />`,
    );
  });

  it("drops tags outside the allow-list but keeps their text", () => {
    expect(sanitizePageHtml(`<h5>Five</h5><div><span>inside</span></div>`)).toBe("Fiveinside");
  });
});

describe("renderMarkdown", () => {
  it("renders headings, emphasis, lists and https links, with rel on links", () => {
    expect(renderMarkdown("# Title\n\nSome *em*, **strong** and [a link](https://example.com).\n\n- a\n- b\n\n1. one\n")).toBe(
      "<h1>Title</h1>\n" +
        '<p>Some <em>em</em>, <strong>strong</strong> and <a href="https://example.com" rel="noopener noreferrer">a link</a>.</p>\n' +
        "<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n<ol>\n<li>one</li>\n</ol>\n",
    );
  });

  it("makes a javascript: Markdown link inert", () => {
    expect(renderMarkdown("[x](javascript:alert(1))")).toBe('<p><a rel="noopener noreferrer">x</a></p>\n');
  });

  it("makes a data: Markdown image inert", () => {
    expect(renderMarkdown("![x](data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=)")).toBe('<p><img alt="x" /></p>\n');
  });

  it("sanitises raw HTML inside Markdown", () => {
    expect(renderMarkdown('Hello <script>alert(1)</script> <img src=x onerror=alert(1)>\n\n<iframe src="https://evil.example/"></iframe>\n')).toBe(
      // The iframe's block leaves only its line break behind.
      '<p>Hello  <img src="x" /></p>\n\n',
    );
  });

  it("escapes code in fenced blocks and drops the language class", () => {
    expect(renderMarkdown("```html\n<script>alert(1)</script>\n```")).toBe("<pre><code>&lt;script&gt;alert(1)&lt;/script&gt;\n</code></pre>\n");
  });
});

describe("markdownTitle", () => {
  it("is the first top-level heading's text", () => {
    expect(markdownTitle("Intro\n\n## Sub\n\n# Complaints\n\n# Later")).toBe("Complaints");
  });

  it("ignores a heading inside a fenced code block", () => {
    expect(markdownTitle("```\n# not a title\n```\n")).toBeNull();
  });

  it("is null without a top-level heading", () => {
    expect(markdownTitle("## Only a subheading\n\ntext")).toBeNull();
  });
});
