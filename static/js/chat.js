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
    if (log) log.scrollTop = log.scrollHeight;
    var count = p.querySelectorAll("[data-testid=chat-msg]").length;
    var badge = p.querySelector("[data-chat-unread]");
    if (p.open || seen === null) seen = count;
    if (badge) {
      badge.hidden = count <= seen;
      badge.textContent = String(count - seen);
    }
  }
  document.addEventListener("DOMContentLoaded", function () {
    var p = panel();
    if (!p) return;
    if (window.matchMedia("(min-width: 1000px)").matches && localStorage.getItem("tapet-chat") !== "closed") p.open = true;
    p.addEventListener("toggle", function () {
      if (window.matchMedia("(min-width: 1000px)").matches) localStorage.setItem("tapet-chat", p.open ? "open" : "closed");
      settle();
    });
  });
  document.addEventListener("htmx:afterSettle", settle);
  document.addEventListener("htmx:oobAfterSwap", settle);
})();
