// Board elements that stand for prompt options click those options' buttons, so every choice
// stays a plain button in the prompt bar for keyboards and screen readers as well.
// A province naming one option submits it; one naming several narrows the buttons to those.

function optionButton(index) {
  return document.querySelector(`#prompt [data-option-button="${index}"]`);
}

function narrowTo(indices) {
  const options = document.querySelector("#prompt .options");
  if (!options) return;
  options.querySelectorAll("form").forEach((form) => form.classList.remove("match"));
  indices.forEach((i) => optionButton(i)?.closest("form")?.classList.add("match"));
  options.classList.add("narrowed");
  const showAll = options.querySelector(".show-all");
  if (showAll) showAll.hidden = false;
  optionButton(indices[0])?.focus();
}

function showAll() {
  const options = document.querySelector("#prompt .options.narrowed");
  if (!options) return;
  options.classList.remove("narrowed");
  options.querySelector(".show-all").hidden = true;
}

document.addEventListener("click", (event) => {
  if (event.target.closest(".show-all")) return showAll();
  if (event.target.closest("a")) return; // a card's name opens its page, not the option
  const single = event.target.closest("[data-option]");
  if (single) return optionButton(single.dataset.option)?.click();
  const several = event.target.closest("[data-options]");
  if (several) narrowTo(several.dataset.options.split(" "));
});

document.addEventListener("keydown", (event) => {
  if (event.key === "Escape") return showAll();
  if (event.key !== "Enter" && event.key !== " ") return;
  const target = event.target.closest && event.target.closest("[data-option], [data-options]");
  if (!target) return;
  event.preventDefault();
  target.dispatchEvent(new MouseEvent("click", { bubbles: true }));
});

// A push sends only the map registers that changed, each wrapped in <svg hx-swap-oob="svg:#id">
// so that it is parsed as SVG (games.pages.svg_split): the "svg" swap puts the register in
// place of the element with that id.
if (window.htmx) {
  htmx.defineExtension("chancery-svg", {
    handleSwap(style, target, fragment) {
      if (style !== "svg") return false;
      const parts = Array.from(fragment.childNodes);
      target.replaceWith(...parts);
      return parts;
    },
  });
}

// Map zoom and pan. The zoom lives on the root element (--map-zoom), outside the swapped board,
// so it survives live updates; the map's frame (.map-scroll) scrolls to pan. The buttons, the
// wheel (about the pointer), a mouse drag, a two-finger pinch, and the keys + − 0 and the arrows
// on the focused frame all work it; a drag never clicks the province it started on.
const ZOOM_KEY = "chancery:map-zoom";
const ZOOM_MIN = 1;
const ZOOM_MAX = 4;
function currentZoom() {
  return parseFloat(getComputedStyle(document.documentElement).getPropertyValue("--map-zoom")) || 1;
}
function setZoom(zoom, frame, at) {
  const before = currentZoom();
  const clamped = Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, Math.round(zoom * 100) / 100));
  let keep = null;
  if (frame) {
    // The point of the map under `at` (frame coordinates; the frame's centre by default) stays put.
    const x = at ? at.x : frame.clientWidth / 2;
    const y = at ? at.y : frame.clientHeight / 2;
    keep = { x, y, left: frame.scrollLeft + x, top: frame.scrollTop + y };
  }
  document.documentElement.style.setProperty("--map-zoom", clamped);
  if (keep) {
    const ratio = clamped / before;
    frame.scrollLeft = keep.left * ratio - keep.x;
    frame.scrollTop = keep.top * ratio - keep.y;
  }
  document.querySelectorAll("[data-zoom-level]").forEach((el) => { el.textContent = `${Math.round(clamped * 100)}%`; });
  try { localStorage.setItem(ZOOM_KEY, clamped); } catch (e) { /* private mode: zoom just resets */ }
  return clamped !== before;
}
function mapFrame(el) {
  return el.closest(".board-col")?.querySelector(".map-scroll") || document.querySelector(".map-scroll");
}
function framePoint(frame, clientX, clientY) {
  const rect = frame.getBoundingClientRect();
  return { x: clientX - rect.left, y: clientY - rect.top };
}
document.addEventListener("click", (event) => {
  const button = event.target.closest("[data-zoom]");
  if (!button) return;
  const now = currentZoom();
  setZoom({ in: now * 1.25, out: now / 1.25, fit: 1 }[button.dataset.zoom], mapFrame(button));
});
document.addEventListener("keydown", (event) => {
  const frame = event.target.closest && event.target.closest(".map-scroll");
  if (!frame || event.ctrlKey || event.metaKey || event.altKey) return;
  const now = currentZoom();
  const to = { "+": now * 1.25, "=": now * 1.25, "-": now / 1.25, "_": now / 1.25, 0: 1 }[event.key];
  if (to === undefined) return; // the arrows scroll the focused frame natively
  event.preventDefault();
  setZoom(to, frame);
});
// The wheel zooms about the pointer; zooming out at the whole map scrolls the page instead.
document.addEventListener("wheel", (event) => {
  const frame = event.target.closest && event.target.closest(".map-scroll");
  if (!frame || event.shiftKey || !frame.querySelector("svg.map")) return;
  const lines = event.deltaMode === 1 ? 16 : event.deltaMode === 2 ? frame.clientHeight : 1;
  const factor = Math.exp(-event.deltaY * lines * 0.0015);
  if (factor < 1 && currentZoom() <= ZOOM_MIN) return;
  event.preventDefault();
  setZoom(currentZoom() * factor, frame, framePoint(frame, event.clientX, event.clientY));
}, { passive: false });
// A mouse drag pans; touch screens pan natively (one finger) and pinch here (two).
let drag = null;
document.addEventListener("pointerdown", (event) => {
  const frame = event.pointerType === "mouse" && event.button === 0 && event.target.closest(".map-scroll");
  if (!frame || !frame.querySelector("svg.map")) return;
  drag = { frame, x: event.clientX, y: event.clientY, left: frame.scrollLeft, top: frame.scrollTop, moved: false };
});
document.addEventListener("pointermove", (event) => {
  if (!drag) return;
  const dx = event.clientX - drag.x;
  const dy = event.clientY - drag.y;
  if (!drag.moved && Math.hypot(dx, dy) < 5) return;
  drag.moved = true;
  drag.frame.classList.add("dragging");
  drag.frame.scrollLeft = drag.left - dx;
  drag.frame.scrollTop = drag.top - dy;
});
document.addEventListener("pointerup", () => {
  if (!drag) return;
  drag.frame.classList.remove("dragging");
  if (drag.moved) {
    // The click that ends a drag is not a choice on the map.
    window.addEventListener("click", (e) => { e.stopPropagation(); e.preventDefault(); }, { capture: true, once: true });
    setTimeout(() => { drag = null; }, 0);
  } else {
    drag = null;
  }
});
let pinch = null;
function spread(touches) {
  return Math.hypot(touches[0].clientX - touches[1].clientX, touches[0].clientY - touches[1].clientY);
}
document.addEventListener("touchstart", (event) => {
  const frame = event.touches.length === 2 && event.target.closest && event.target.closest(".map-scroll");
  if (frame) pinch = { frame, spread: spread(event.touches), zoom: currentZoom() };
}, { passive: true });
document.addEventListener("touchmove", (event) => {
  if (!pinch || event.touches.length !== 2) return;
  event.preventDefault();
  const [a, b] = event.touches;
  const mid = framePoint(pinch.frame, (a.clientX + b.clientX) / 2, (a.clientY + b.clientY) / 2);
  setZoom(pinch.zoom * spread(event.touches) / pinch.spread, pinch.frame, mid);
}, { passive: false });
document.addEventListener("touchend", (event) => { if (event.touches.length < 2) pinch = null; });
try { const saved = parseFloat(localStorage.getItem(ZOOM_KEY)); if (saved) setZoom(saved); } catch (e) { /* ignore */ }

// After a live update: keep the log's newest line in view, and flash numbers that changed.
let watched = null;
function snapshot() {
  const values = new Map();
  document.querySelectorAll("[data-watch]").forEach((el) => values.set(el.dataset.watch, el.textContent.trim()));
  return values;
}
let pending = false;
function afterUpdate() {
  if (pending) return;
  pending = true;
  requestAnimationFrame(() => {
    pending = false;
    const log = document.querySelector("#log ol");
    if (log) {
      // A live update may append lines (games.pages.live_update): keep the lines of the newest
      // data-keep moves, as a full render of the log would.
      const keep = parseInt(log.dataset.keep, 10) || 0;
      const prompt = document.getElementById("prompt");
      const seq = prompt ? parseInt(prompt.dataset.seq, 10) : NaN;
      if (keep && !Number.isNaN(seq)) {
        for (const line of Array.from(log.children)) {
          const at = line.querySelector(".seq");
          if (at && parseInt(at.textContent, 10) <= seq - keep) line.remove();
        }
      }
      log.scrollTop = log.scrollHeight;
    }
    const now = snapshot();
    if (watched) {
      document.querySelectorAll("[data-watch]").forEach((el) => {
        if (watched.has(el.dataset.watch) && watched.get(el.dataset.watch) !== now.get(el.dataset.watch)) {
          el.classList.add("changed");
        }
      });
    }
    watched = now;
  });
}
document.addEventListener("DOMContentLoaded", afterUpdate);
document.addEventListener("htmx:load", afterUpdate);
document.addEventListener("htmx:oobAfterSwap", afterUpdate);

// Running seat clocks count down between live updates: every 30 s, and after each swap, the time
// left is redrawn from the card's data-deadline, in the server's words (games.clocks.duration_text).
function clockText(ms) {
  const minutes = Math.max(0, Math.floor(ms / 60000));
  const days = Math.floor(minutes / 1440), hours = Math.floor(minutes / 60) % 24, mins = minutes % 60;
  if (days) return `${days}d ${hours}h`;
  return hours ? `${hours}h ${mins}m` : `${mins}m`;
}
function tickClocks() {
  const now = Date.now();
  document.querySelectorAll(".clock[data-deadline] [data-clock-left]").forEach((el) => {
    // Microseconds (Django's "c" format) are trimmed to milliseconds for Date.parse.
    const deadline = Date.parse(el.closest(".clock").dataset.deadline.replace(/(\.\d{3})\d+/, "$1"));
    if (!Number.isNaN(deadline)) el.textContent = `Clock ${clockText(deadline - now)}`;
  });
}
setInterval(tickClocks, 30000);
document.addEventListener("DOMContentLoaded", tickClocks);
document.addEventListener("htmx:load", tickClocks);
document.addEventListener("htmx:oobAfterSwap", tickClocks);

// The connection: when the game's socket closes or a request cannot be sent, the page says so
// ("Connection lost — reconnecting…"), the socket reconnects with backoff (htmx's ws extension,
// with the delays below), and the first push after it reopens brings every live region up to
// date (the server renders the game as it is now on connect); then the page says it is back.
// A choice clicked while the server could not be reached is kept and sent again until the
// server answers: the move service answers a resubmitted move with its first acceptance, and a
// move the game has passed by with a message, so a resend never plays a move twice. Other
// requests (chat, notes) are not resent: the banner says they were not sent.
const RETRY_DELAYS_MS = [2000, 4000, 8000, 15000];
let connectionLost = false;
let catchingUp = false;
let unsent = null;
let resending = false;
let retryTimer = null;

if (window.htmx) {
  htmx.config.wsReconnectDelay = (retry) => Math.min(15000, 1000 * 2 ** retry) * (0.5 + Math.random() / 2);
}

function connectionBanner(text, state) {
  const banner = document.getElementById("connection");
  if (!banner) return;
  banner.textContent = text;
  banner.dataset.state = state;
  banner.hidden = false;
}

function hideBannerSoon() {
  const banner = document.getElementById("connection");
  setTimeout(() => { if (banner && banner.dataset.state !== "lost") banner.hidden = true; }, 4000);
}

function lose(text) {
  connectionLost = true;
  connectionBanner(text || "Connection lost — reconnecting…", "lost");
}

function recovered() {
  connectionLost = false;
  connectionBanner("Reconnected — the page is up to date.", "back");
  hideBannerSoon();
  if (unsent) resend(0);
}

document.addEventListener("htmx:wsClose", (event) => {
  const code = event.detail.event && event.detail.event.code;
  if (code === 4403) return connectionBanner("You can no longer watch this game.", "lost");
  if (!unsent) lose();
});
document.addEventListener("htmx:wsError", () => { if (!unsent) lose(); });
document.addEventListener("htmx:wsOpen", () => { if (connectionLost) catchingUp = true; });
document.addEventListener("htmx:wsAfterMessage", () => {
  if (catchingUp) { catchingUp = false; recovered(); }
});

// While the game's socket is open, a move is answered with the notice only (games.views.act):
// the push that follows brings the prompt and every region that changed. Until it comes the
// prompt's choices stay disabled (a second click would only be refused as stale); if it is
// late (the push is owed while the channel layer recovers) they come back after a while.
const LIVE_WAIT_MS = 10000;
let socketOpen = false;
document.addEventListener("htmx:wsOpen", () => { socketOpen = true; });
document.addEventListener("htmx:wsClose", () => { socketOpen = false; });
document.addEventListener("htmx:wsError", () => { socketOpen = false; });
document.addEventListener("htmx:configRequest", (event) => {
  const path = event.detail.path || "";
  if (socketOpen && path.endsWith("/act/")) event.detail.headers["X-Chancery-Live"] = "1";
});
function promptSeq() {
  const prompt = document.getElementById("prompt");
  return prompt ? parseInt(prompt.dataset.seq, 10) : NaN;
}
function awaitsPush(event) {
  const xhr = event.detail.xhr;
  const pushed = xhr ? parseInt(xhr.getResponseHeader("X-Chancery-Pushed"), 10) : NaN;
  return !Number.isNaN(pushed) && !(promptSeq() >= pushed);
}

function moveForm(event) {
  const elt = event.detail.elt;
  const form = elt && elt.closest ? elt.closest("form") : null;
  const url = form && form.getAttribute("hx-post");
  return url && url.endsWith("/act/") ? form : null;
}

function keep(form) {
  unsent = { url: form.getAttribute("hx-post"), values: Object.fromEntries(new FormData(form)) };
  lose("Connection lost — your choice will be sent when the connection is back.");
  clearTimeout(retryTimer);
  retryTimer = setTimeout(() => resend(1), RETRY_DELAYS_MS[0]);
}

function resend(attempt) {
  clearTimeout(retryTimer);
  if (!unsent || resending) return;
  resending = true;
  htmx.ajax("POST", unsent.url, { values: unsent.values, swap: "none" })
    .catch(() => {})
    .finally(() => { resending = false; });
  retryTimer = setTimeout(() => resend(attempt + 1),
    RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length - 1)]);
}

document.addEventListener("htmx:afterRequest", (event) => {
  if (!resending || !unsent) return;
  const status = event.detail.xhr ? event.detail.xhr.status : 0;
  if (!status || status >= 500) return; // not answered: the timer tries again
  unsent = null;
  clearTimeout(retryTimer);
  if (connectionLost) {
    connectionBanner("Your choice was sent; reconnecting the live updates…", "lost");
  } else {
    connectionBanner("Your choice was sent.", "back");
    hideBannerSoon();
  }
});

document.addEventListener("htmx:sendError", (event) => {
  if (resending) return;
  const form = moveForm(event);
  if (form) return keep(form);
  lose("Connection lost — that was not sent; try again once the connection is back.");
});

document.addEventListener("htmx:responseError", (event) => {
  if (resending) return;
  const status = event.detail.xhr ? event.detail.xhr.status : 0;
  if (status === 429) {
    const wait = event.detail.xhr.getResponseHeader("Retry-After") || "a few";
    connectionBanner(`Too many requests: wait ${wait} seconds and try again.`, "warn");
    return hideBannerSoon();
  }
  const form = status >= 500 ? moveForm(event) : null;
  if (form) keep(form);
});

// Feedback on every click: a form being sent is marked (a spinner on its button, aria-busy) and
// its buttons are disabled until the answer comes, so a quick double click sends one request.
// While a move is on its way every choice of the prompt bar is disabled: the first one counts.
function sendingStart(form) {
  form.classList.add("sending");
  form.setAttribute("aria-busy", "true");
  const scope = form.classList.contains("move") ? form.closest(".options") || form : form;
  scope.querySelectorAll("button").forEach((b) => {
    if (!b.disabled) { b.disabled = true; b.dataset.sendingDisabled = "1"; }
  });
}
function sendingEnd(form) {
  form.classList.remove("sending");
  form.removeAttribute("aria-busy");
  const scope = form.classList.contains("move") ? form.closest(".options") || form : form;
  scope.querySelectorAll("button[data-sending-disabled]").forEach((b) => {
    b.disabled = false;
    delete b.dataset.sendingDisabled;
  });
}
function requestForm(event) {
  const elt = event.detail && event.detail.elt;
  return elt && elt.closest ? elt.closest("form") : null;
}
document.addEventListener("htmx:beforeRequest", (event) => {
  const form = requestForm(event);
  if (form) sendingStart(form);
});
document.addEventListener("htmx:afterRequest", (event) => {
  const form = requestForm(event);
  if (!form || !form.isConnected) return;
  if (!awaitsPush(event)) return sendingEnd(form);
  // The push replaces the prompt bar, buttons and all; this is only for a push that is late.
  setTimeout(() => { if (form.isConnected) sendingEnd(form); }, LIVE_WAIT_MS);
});

// A form that htmx has not taken over yet (a click before its script ran, or on content being
// swapped in) is sent by htmx all the same, never as the browser's own submission: a move must
// not become a GET that reloads the page and loses it.
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (event.defaultPrevented || !form.matches || !form.matches("form[hx-post]")) return;
  event.preventDefault();
  if (!window.htmx || form.classList.contains("sending")) return;
  htmx.process(form);
  htmx.trigger(form, "submit");
});

// A plain form (log in, sign up, new game) shows that it is being sent and cannot be sent twice.
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (event.defaultPrevented || !form.matches || form.matches("[hx-post]")) return;
  const button = form.querySelector("button[type=submit], button:not([type])");
  if (!button) return;
  if (form.classList.contains("sending")) { event.preventDefault(); return; }
  form.classList.add("sending");
  form.setAttribute("aria-busy", "true");
  if (form.dataset.sending) button.dataset.label = button.textContent, button.textContent = form.dataset.sending;
  // Disabled after the browser has read the form, so the submission itself is not stopped.
  setTimeout(() => { button.disabled = true; }, 0);
});
// Back from the browser's cache (the back button): the form is usable again.
window.addEventListener("pageshow", (event) => {
  if (!event.persisted) return;
  document.querySelectorAll("form.sending").forEach((form) => {
    form.classList.remove("sending");
    form.removeAttribute("aria-busy");
    const button = form.querySelector("button[disabled]");
    if (button) { button.disabled = false; if (button.dataset.label) button.textContent = button.dataset.label; }
  });
});

// The tab says when it is your decision: its title starts with a mark and the icon gets a dot.
const BASE_TITLE = document.title;
function markTurn() {
  const mine = !!document.querySelector("#prompt.prompt-bar.mine");
  document.title = mine ? `● Your turn — ${BASE_TITLE}` : BASE_TITLE;
  const icon = document.querySelector("link[rel=icon]");
  if (icon && icon.dataset.turn) {
    if (!icon.dataset.idle) icon.dataset.idle = icon.href;
    icon.href = mine ? icon.dataset.turn : icon.dataset.idle;
  }
}
document.addEventListener("DOMContentLoaded", markTurn);
document.addEventListener("htmx:oobAfterSwap", markTurn);
document.addEventListener("htmx:load", markTurn);

// Every short word of the game on the page carries its meaning: the server glosses prompts,
// choices, the log and stat lines (games.glossary); this marks the rest (card texts, location
// effects, tables) from the game's words in #glossary-words, after each swap too.
const SKIP_WORDS = "abbr, script, style, textarea, select, option, svg, code, pre, [data-no-gloss]";
let glossWords = null;
function markAbbreviations(event) {
  if (glossWords === null) {
    const data = document.getElementById("glossary-words");
    glossWords = data ? JSON.parse(data.textContent) : {};
  }
  const words = Object.keys(glossWords).sort((a, b) => b.length - a.length);
  // After a swap only the new content is read (the EMA page is large); on load, the whole page.
  const swapped = event && event.detail && (event.detail.elt || event.detail.target);
  const root = swapped && swapped.nodeType === 1 && swapped.closest("main") ? swapped : document.querySelector("main");
  if (!words.length || !root) return;
  const escaped = words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const pattern = new RegExp("(?<![\\w-])(" + escaped.join("|") + ")(?![\\w-])", "g");
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode: (node) => {
      pattern.lastIndex = 0;
      if (!pattern.test(node.nodeValue)) return NodeFilter.FILTER_SKIP;
      return node.parentElement.closest(SKIP_WORDS) ? NodeFilter.FILTER_SKIP : NodeFilter.FILTER_ACCEPT;
    },
  });
  const found = [];
  while (walker.nextNode()) found.push(walker.currentNode);
  for (const node of found) {
    const text = node.nodeValue;
    const piece = document.createDocumentFragment();
    let last = 0;
    pattern.lastIndex = 0;
    for (const match of text.matchAll(pattern)) {
      piece.append(text.slice(last, match.index));
      const abbr = document.createElement("abbr");
      abbr.title = glossWords[match[1]];
      abbr.textContent = match[1];
      piece.append(abbr);
      last = match.index + match[1].length;
    }
    piece.append(text.slice(last));
    node.replaceWith(piece);
  }
}
document.addEventListener("DOMContentLoaded", markAbbreviations);
document.addEventListener("htmx:load", markAbbreviations);
document.addEventListener("htmx:oobAfterSwap", markAbbreviations);

// Abbreviations explain themselves on a tap as well as on hover: a tap shows the meaning inline.
document.addEventListener("click", (event) => {
  const abbr = event.target.closest && event.target.closest("abbr[title]");
  if (!abbr || abbr.closest("button, a")) return;
  abbr.classList.toggle("open");
});
