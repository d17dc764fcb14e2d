// The support widget (spec 4.8 GET /support/widget.js and /support/widget.css): a self-contained script with no
// third-party loads. It finds its own origin from its <script> tag, loads the stylesheet and posts to the chat
// endpoint on that origin, and renders a launcher button and a non-modal chat dialog.
//
// Embed: <script src="https://<hub>/public/v1/support/widget.js" defer></script>
//
// The reply HTML is sanitised by the server; the visitor's own text is only ever set as textContent. Absolute
// URLs never appear in the source: everything it loads or calls is on the script's own origin.

export const WIDGET_VERSION = "1.0.0";

export const WIDGET_SCRIPT = `/* Support chat widget ${WIDGET_VERSION} */
(function () {
  "use strict";
  if (window.__supportChatWidget) return;
  window.__supportChatWidget = true;

  var script = document.currentScript;
  if (!script || !script.src) return;
  var origin = new URL(script.src).origin;
  var CHAT_PATH = "/public/v1/support/chat";
  var STYLE_PATH = "/public/v1/support/widget.css";
  var SESSION_KEY = "supportChatSessionId";
  var MAX_LENGTH = 1000;

  function element(tag, attributes, text) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (name) { node.setAttribute(name, attributes[name]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function readSession() {
    try { return window.sessionStorage.getItem(SESSION_KEY); } catch (error) { return null; }
  }
  function writeSession(id) {
    try {
      if (id) window.sessionStorage.setItem(SESSION_KEY, id);
      else window.sessionStorage.removeItem(SESSION_KEY);
    } catch (error) { /* storage blocked: the chat still works, one session per page */ }
  }

  function build() {
    var stylesheet = element("link", { rel: "stylesheet", href: origin + STYLE_PATH });
    document.head.appendChild(stylesheet);

    var root = element("div", { class: "svc-support" });
    var launcher = element("button", {
      type: "button",
      class: "svc-support__launcher",
      "aria-label": "Open support chat",
      "aria-expanded": "false",
      "aria-controls": "svc-support-panel"
    }, "Help");

    var panel = element("div", {
      id: "svc-support-panel",
      class: "svc-support__panel",
      role: "dialog",
      "aria-modal": "false",
      "aria-labelledby": "svc-support-title"
    });
    panel.hidden = true;

    var header = element("div", { class: "svc-support__header" });
    var title = element("h2", { id: "svc-support-title", class: "svc-support__title" }, "Support");
    var close = element("button", { type: "button", class: "svc-support__close", "aria-label": "Close support chat" }, "\\u00d7");
    header.appendChild(title);
    header.appendChild(close);

    var messages = element("div", { class: "svc-support__messages", role: "log", "aria-live": "polite" });
    var greeting = element("p", { class: "svc-support__message svc-support__message--assistant" },
      "Hello! Ask me about our products, who can borrow, or costs. Please don't share personal or account details here.");
    messages.appendChild(greeting);

    var form = element("form", { class: "svc-support__form" });
    var label = element("label", { for: "svc-support-input", class: "svc-support__label" }, "Your message");
    var input = element("textarea", { id: "svc-support-input", class: "svc-support__input", maxlength: String(MAX_LENGTH), rows: "3", required: "" });
    var send = element("button", { type: "submit", class: "svc-support__send" }, "Send");
    form.appendChild(label);
    form.appendChild(input);
    form.appendChild(send);

    panel.appendChild(header);
    panel.appendChild(messages);
    panel.appendChild(form);
    root.appendChild(panel);
    root.appendChild(launcher);
    document.body.appendChild(root);

    function open() {
      panel.hidden = false;
      launcher.setAttribute("aria-expanded", "true");
      input.focus();
    }
    function shut() {
      panel.hidden = true;
      launcher.setAttribute("aria-expanded", "false");
      launcher.focus();
    }

    launcher.addEventListener("click", function () { if (panel.hidden) open(); else shut(); });
    close.addEventListener("click", shut);
    root.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && !panel.hidden) {
        event.preventDefault();
        shut();
      }
    });

    function show(node) {
      messages.appendChild(node);
      messages.scrollTop = messages.scrollHeight;
    }
    function showVisitor(text) {
      show(element("p", { class: "svc-support__message svc-support__message--visitor" }, text));
    }
    function showReply(html, signInUrl) {
      var reply = element("div", { class: "svc-support__message svc-support__message--assistant" });
      reply.innerHTML = html;
      if (signInUrl && /^https?:/i.test(signInUrl)) {
        var link = element("a", { class: "svc-support__sign-in", href: signInUrl }, "Sign in to your account");
        reply.appendChild(link);
      }
      show(reply);
    }
    function showError(text) {
      show(element("p", { class: "svc-support__message svc-support__message--error", role: "alert" }, text));
    }

    function errorText(status, body, retryAfter) {
      if (status === 429) {
        var seconds = Number(retryAfter);
        return "You are sending messages too quickly. Please try again" + (seconds > 0 ? " in " + seconds + " seconds." : " shortly.");
      }
      if (body && body.error && typeof body.error.message === "string") return body.error.message;
      return "Sorry, something went wrong. Please try again.";
    }

    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var text = input.value.trim();
      if (!text || send.disabled) return;
      showVisitor(text);
      input.value = "";
      send.disabled = true;
      var payload = { message: text };
      var sessionId = readSession();
      if (sessionId) payload.session_id = sessionId;
      fetch(origin + CHAT_PATH, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(payload),
        credentials: "omit"
      })
        .then(function (response) {
          return response.json().catch(function () { return null; }).then(function (body) {
            if (response.ok && body) {
              writeSession(body.session_id);
              showReply(body.reply, body.handoff ? body.sign_in_url : null);
              return;
            }
            var code = body && body.error ? body.error.code : "";
            // A closed or forgotten session: the next message starts a new one.
            if (code === "support_session_closed" || code === "not_found") writeSession(null);
            showError(response.status >= 400 && response.status < 500
              ? errorText(response.status, body, response.headers.get("Retry-After"))
              : "Sorry, something went wrong. Please try again.");
          });
        })
        .catch(function () { showError("Sorry, we couldn't reach support. Please check your connection and try again."); })
        .then(function () {
          send.disabled = false;
          input.focus();
        });
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", build);
  else build();
})();
`;

export const WIDGET_STYLESHEET = `/* Support chat widget ${WIDGET_VERSION} */
.svc-support { position: fixed; right: 1rem; bottom: 1rem; z-index: 2147483000; font: 15px/1.4 system-ui, sans-serif; color: #1a1a1a; }
.svc-support * { box-sizing: border-box; }
.svc-support__launcher { display: block; margin-left: auto; padding: 0.75rem 1.25rem; border: 0; border-radius: 999px; background: #0b5cad; color: #fff; font: inherit; font-weight: 600; cursor: pointer; box-shadow: 0 2px 8px rgba(0, 0, 0, 0.25); }
.svc-support__launcher:focus-visible, .svc-support button:focus-visible, .svc-support__input:focus-visible { outline: 3px solid #f2a900; outline-offset: 2px; }
.svc-support__panel { display: flex; flex-direction: column; width: min(22rem, calc(100vw - 2rem)); height: min(30rem, calc(100vh - 6rem)); margin-bottom: 0.75rem; border: 1px solid #c8c8c8; border-radius: 0.75rem; background: #fff; box-shadow: 0 4px 16px rgba(0, 0, 0, 0.2); overflow: hidden; }
.svc-support__panel[hidden] { display: none; }
.svc-support__header { display: flex; align-items: center; justify-content: space-between; padding: 0.5rem 0.75rem; background: #0b5cad; color: #fff; }
.svc-support__title { margin: 0; font-size: 1rem; }
.svc-support__close { border: 0; background: transparent; color: inherit; font-size: 1.5rem; line-height: 1; cursor: pointer; }
.svc-support__messages { flex: 1; padding: 0.75rem; overflow-y: auto; }
.svc-support__message { margin: 0 0 0.5rem; padding: 0.5rem 0.75rem; border-radius: 0.5rem; overflow-wrap: anywhere; }
.svc-support__message p { margin: 0 0 0.5rem; }
.svc-support__message p:last-child, .svc-support__message ul:last-child { margin-bottom: 0; }
.svc-support__message--assistant { background: #f0f3f7; }
.svc-support__message--visitor { margin-left: 2rem; background: #dbeafe; white-space: pre-wrap; }
.svc-support__message--error { background: #fde8e8; color: #8a1111; }
.svc-support__sign-in { display: inline-block; margin-top: 0.5rem; font-weight: 600; color: #0b5cad; }
.svc-support__form { display: grid; gap: 0.375rem; padding: 0.75rem; border-top: 1px solid #e2e2e2; }
.svc-support__label { font-size: 0.875rem; font-weight: 600; }
.svc-support__input { width: 100%; padding: 0.5rem; border: 1px solid #8a8a8a; border-radius: 0.375rem; font: inherit; resize: vertical; }
.svc-support__send { justify-self: end; padding: 0.5rem 1rem; border: 0; border-radius: 0.375rem; background: #0b5cad; color: #fff; font: inherit; cursor: pointer; }
.svc-support__send:disabled { opacity: 0.6; cursor: wait; }
`;
