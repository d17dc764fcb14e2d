// apply.js (docs/apply-js.md): the script a partner's page embeds to start an application with its publishable key
// and run the hosted journey in a modal frame, or, on a small screen, in the whole window. Served at
// {JS_URL}/v1/apply.js; dependency-free, and styled only through the CSS object model, so it runs under a page's
// strict Content-Security-Policy with no 'unsafe-inline'. Messages from the frame count only from the journey's
// origin and from the frame the widget opened.
import { config } from "../env";
import { staticAsset, type StaticAsset } from "../wire/static-asset";

/** The script's version: the path's `v1` is the major version, which never breaks an embedding page. */
export const APPLY_JS_VERSION = "1.0.0";

/** Under this width the journey opens in the whole window, not a modal frame. */
export const SMALL_SCREEN_MAX_WIDTH_PX = 639;

export const START_PATH = "/apply/v1/applications";

function applyScript(applyUrl: string): string {
  return `/*! LendingApply (apply.js) ${APPLY_JS_VERSION} */
(function () {
  "use strict";
  if (window.LendingApply) return;

  var VERSION = ${JSON.stringify(APPLY_JS_VERSION)};
  var APPLY_ORIGIN = ${JSON.stringify(new URL(applyUrl).origin)};
  var START_URL = ${JSON.stringify(applyUrl + START_PATH)};
  var SMALL_SCREEN = "(max-width: ${SMALL_SCREEN_MAX_WIDTH_PX}px)";
  var COMPLETE = "lending-apply:complete";
  var CLOSE = "lending-apply:close";
  var INK = "#14213d";

  var openModal = null;
  // Applications this page started, by what was asked: opening again after closing resumes the same journey.
  var started = {};

  function element(tag, attributes, text) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (name) { node.setAttribute(name, attributes[name]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // Through the CSS object model, which a page's style-src does not govern; !important against the page's own rules.
  function css(node, declarations) {
    Object.keys(declarations).forEach(function (name) { node.style.setProperty(name, declarations[name], "important"); });
    return node;
  }

  function report(options, error) {
    if (typeof options.onError === "function") options.onError(error);
    else if (window.console) window.console.error("LendingApply: " + error.message);
  }

  function problemWith(options) {
    var key = options.publishableKey;
    if (typeof key !== "string" || !/^pk_(sandbox|live)_/.test(key)) {
      return /^sk_/.test(String(key))
        ? "publishableKey is a secret key: never put it in a web page. Roll it now, and use your publishable key (pk_...)."
        : "publishableKey must be your publishable key (pk_sandbox_... or pk_live_...).";
    }
    if (typeof options.amountPence !== "number" || Math.floor(options.amountPence) !== options.amountPence) return "amountPence must be a whole number of pence.";
    if (typeof options.termMonths !== "number" || Math.floor(options.termMonths) !== options.termMonths) return "termMonths must be a whole number of months.";
    if (typeof options.companyNumber !== "string") return "companyNumber must be a string, such as \\"12345678\\".";
    if (options.onComplete !== undefined && typeof options.onComplete !== "function") return "onComplete must be a function.";
    return null;
  }

  function requestBody(options, redirectUri) {
    var body = {
      publishable_key: options.publishableKey,
      business: { company_number: options.companyNumber },
      amount_pence: options.amountPence,
      term_months: options.termMonths
    };
    if (options.applicant) body.applicant = options.applicant;
    if (options.reference !== undefined) body.reference = options.reference;
    if (options.purpose !== undefined) body.purpose = options.purpose;
    if (redirectUri) body.redirect_uri = redirectUri;
    return body;
  }

  function start(body) {
    var remembered = started[JSON.stringify(body)];
    if (remembered) return Promise.resolve(remembered);
    return fetch(START_URL, {
      method: "POST",
      mode: "cors",
      credentials: "omit",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body)
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (answer) {
        if (response.ok && answer.handoff_url) {
          started[JSON.stringify(body)] = answer;
          return answer;
        }
        var error = answer.error || {};
        throw { code: error.code || "start_failed", message: error.message || "The application could not be started.", status: response.status };
      });
    }, function () {
      throw { code: "network_error", message: "The application could not be started: the platform did not answer." };
    });
  }

  // The partner's page may itself be framed: the journey takes the whole tab, if the browser lets it.
  function goTo(url) {
    try { window.top.location.href = url; } catch (blocked) { window.location.href = url; }
  }

  function Modal(options) {
    var self = this;
    var titleId = "lending-apply-title-" + Math.random().toString(36).slice(2);
    this.options = options;
    this.application = null;
    this.returnFocus = document.activeElement;
    this.rootOverflow = document.documentElement.style.getPropertyValue("overflow");

    this.overlay = css(element("div", { "data-lending-apply": VERSION }), {
      position: "fixed", top: "0", right: "0", bottom: "0", left: "0", "z-index": "2147483000",
      display: "flex", "align-items": "center", "justify-content": "center", padding: "16px",
      background: "rgba(20, 33, 61, 0.6)", "box-sizing": "border-box"
    });
    this.dialog = css(element("div", { role: "dialog", "aria-modal": "true", "aria-labelledby": titleId }), {
      display: "flex", "flex-direction": "column", width: "100%", "max-width": "760px", height: "100%", "max-height": "960px",
      background: "#fff", "border-radius": "8px", overflow: "hidden", "box-shadow": "0 12px 48px rgba(0, 0, 0, 0.35)",
      "box-sizing": "border-box", color: INK, "font-family": "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"
    });
    var header = css(element("div"), {
      display: "flex", "align-items": "center", "justify-content": "space-between", gap: "8px",
      padding: "4px 4px 4px 16px", "border-bottom": "1px solid #d9e2ec", margin: "0"
    });
    var title = css(element("h2", { id: titleId }, "Apply for business finance"), { margin: "0", "font-size": "16px", "font-weight": "600", "line-height": "1.4", color: INK });
    this.closeButton = css(element("button", { type: "button", "aria-label": "Close the application" }, "\\u00d7"), {
      "min-width": "44px", "min-height": "44px", margin: "0", padding: "0 8px", border: "0", background: "transparent",
      color: INK, "font-size": "28px", "line-height": "1", cursor: "pointer"
    });
    this.status = css(element("p", { role: "status" }, "Starting your application\\u2026"), { margin: "24px 16px", "font-size": "16px", color: INK });
    this.frame = css(element("iframe", { title: "Business finance application" }), { flex: "1 1 auto", width: "100%", border: "0", display: "none" });
    // Focus that leaves the dialog's last element comes back to its first, and the reverse: the page behind stays out of reach.
    this.firstGuard = element("span", { tabindex: "0" });
    this.lastGuard = element("span", { tabindex: "0" });

    header.appendChild(title);
    header.appendChild(this.closeButton);
    this.dialog.appendChild(header);
    this.dialog.appendChild(this.status);
    this.dialog.appendChild(this.frame);
    this.overlay.appendChild(this.firstGuard);
    this.overlay.appendChild(this.dialog);
    this.overlay.appendChild(this.lastGuard);

    this.onKeyDown = function (event) {
      if (event.key === "Escape" || event.key === "Esc") { event.preventDefault(); self.close(); }
    };
    this.onFocusIn = function (event) {
      if (event.target === self.firstGuard) return self.focusLast();
      if (event.target === self.lastGuard || !self.dialog.contains(event.target)) self.closeButton.focus();
    };
    this.onMessage = function (event) {
      if (event.origin !== APPLY_ORIGIN || event.source !== self.frame.contentWindow) return;
      var data = event.data;
      if (!data || typeof data !== "object") return;
      if (data.type === CLOSE) self.close();
      if (data.type === COMPLETE && self.application && data.application_id === self.application.id) self.complete();
    };
    this.closeButton.addEventListener("click", function () { self.close(); });
    document.addEventListener("keydown", this.onKeyDown, true);
    document.addEventListener("focusin", this.onFocusIn, true);
    window.addEventListener("message", this.onMessage);
    document.body.appendChild(this.overlay);
    document.documentElement.style.setProperty("overflow", "hidden");
    this.closeButton.focus();
  }

  Modal.prototype.focusLast = function () {
    if (this.frame.style.getPropertyValue("display") !== "none") this.frame.focus();
    else this.closeButton.focus();
  };

  Modal.prototype.load = function (application) {
    this.application = application;
    this.status.textContent = "";
    css(this.status, { display: "none" });
    this.frame.setAttribute("src", application.handoff_url);
    css(this.frame, { display: "block" });
  };

  Modal.prototype.showError = function (error) {
    this.status.setAttribute("role", "alert");
    this.status.textContent = error.message;
  };

  Modal.prototype.remove = function () {
    document.removeEventListener("keydown", this.onKeyDown, true);
    document.removeEventListener("focusin", this.onFocusIn, true);
    window.removeEventListener("message", this.onMessage);
    if (this.overlay.parentNode) this.overlay.parentNode.removeChild(this.overlay);
    if (this.rootOverflow) document.documentElement.style.setProperty("overflow", this.rootOverflow);
    else document.documentElement.style.removeProperty("overflow");
    if (openModal === this) openModal = null;
    if (this.returnFocus && typeof this.returnFocus.focus === "function") this.returnFocus.focus();
  };

  Modal.prototype.close = function () {
    this.remove();
    if (typeof this.options.onClose === "function") this.options.onClose({ application_id: this.application ? this.application.id : null });
  };

  Modal.prototype.complete = function () {
    var id = this.application.id;
    this.remove();
    for (var key in started) if (started[key].id === id) delete started[key];
    if (typeof this.options.onComplete === "function") this.options.onComplete({ application_id: id });
  };

  function open(options) {
    options = options || {};
    if (openModal) return;
    var problem = problemWith(options);
    if (problem) return report(options, { code: "invalid_options", message: problem });
    var small = window.matchMedia ? window.matchMedia(SMALL_SCREEN).matches : window.innerWidth <= ${SMALL_SCREEN_MAX_WIDTH_PX};
    if (small) {
      // A full-page journey ends at redirect_uri (application_id appended): onComplete cannot run on a page that has gone.
      var back = options.redirectUri || window.location.href.split("#")[0];
      start(requestBody(options, back)).then(function (application) { goTo(application.handoff_url); }, function (error) { report(options, error); });
      return;
    }
    var modal = new Modal(options);
    openModal = modal;
    start(requestBody(options, options.redirectUri)).then(function (application) {
      if (openModal === modal) modal.load(application);
    }, function (error) {
      if (openModal === modal) modal.showError(error);
      report(options, error);
    });
  }

  window.LendingApply = { version: VERSION, open: open };
})();
`;
}

let cached: { applyUrl: string; asset: StaticAsset } | undefined;

/** The script as served: the journey's origin written in, so a message from any other origin is ignored. */
export function applyScriptAsset(): StaticAsset {
  const { APPLY_URL } = config();
  if (cached?.applyUrl !== APPLY_URL) cached = { applyUrl: APPLY_URL, asset: staticAsset(applyScript(APPLY_URL), "text/javascript; charset=utf-8") };
  return cached.asset;
}
