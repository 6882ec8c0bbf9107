// The table's chat (app/chat, docs/chat.md): open at once on a wide screen, closed on a
// phone (a count of new messages on its title); the newest message kept in view.
(function () {
  "use strict";
  var seen = null;
  function panel() { return document.querySelector("[data-chat-panel]"); }
  function settle() {
    var p = panel();
    if (!p) return;
    var log = p.querySelector(".chat-log");
    if (!log) return;  // not filled yet: the socket's first push counts as read
    log.scrollTop = log.scrollHeight;
    var count = p.querySelectorAll("[data-testid=chat-msg]").length;
    if (p.open || seen === null) seen = count;
    document.querySelectorAll("[data-chat-unread]").forEach(function (badge) {
      badge.hidden = count <= seen;
      badge.textContent = String(count - seen);
    });
  }
  document.addEventListener("DOMContentLoaded", function () {
    var p = panel();
    if (!p) return;
    if (window.matchMedia("(min-width: 1000px)").matches && localStorage.getItem("tapet-chat") !== "closed") p.open = true;
    // docked at the foot of the side column (a wide screen), the panel covers its end: the
    // column keeps that much room below its last line (--chat-h, static/css/chat.css)
    var live = document.getElementById("room-live");
    if (live && window.ResizeObserver) {
      new ResizeObserver(function () {
        var docked = getComputedStyle(p).position === "fixed";
        live.style.setProperty("--chat-h", docked ? p.offsetHeight + "px" : "0px");
      }).observe(p);
    }
    p.addEventListener("toggle", function () {
      if (window.matchMedia("(min-width: 1000px)").matches) localStorage.setItem("tapet-chat", p.open ? "open" : "closed");
      settle();
    });
  });
  document.addEventListener("click", function (ev) {
    var jump = ev.target.closest && ev.target.closest("[data-chat-jump]");
    var p = panel();
    if (!jump || !p) return;
    ev.preventDefault();
    var menu = jump.closest("details.table-menu");
    if (menu) menu.open = false;  // the ⚙ menu it sits in on a phone
    p.open = true;
    p.scrollIntoView({ block: "end" });
    var input = p.querySelector("[data-testid=chat-text]");
    // a phone's keyboard would cover the table each time the chat is only read: focus
    // the field with a mouse or a keyboard only (a fresh tester's find)
    if (input && window.matchMedia && window.matchMedia("(pointer: fine)").matches) input.focus({ preventScroll: true });
  });
  document.addEventListener("htmx:afterSettle", settle);
  document.addEventListener("htmx:oobAfterSwap", settle);
})();
