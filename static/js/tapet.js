/* Tapet: the little behaviour htmx does not give us. No build step.
   - [data-dismiss] closes a flash message;
   - [data-toggle-class="x"] toggles class x on <body> (state survives socket swaps);
   - [data-deck-toggle] switches the French deck between two and four colours (a cookie);
   - the lobby's game <select> shows that game's options fieldset only;
   - a banner while the page socket is down;
   - a server push older than what is shown is ignored (data-seq). */
(function () {
  "use strict";

  document.addEventListener("click", function (ev) {
    var dismiss = ev.target.closest("[data-dismiss]");
    if (dismiss) {
      var msg = dismiss.closest(".msg");
      if (msg) msg.remove();
      return;
    }
    var deck = ev.target.closest("[data-deck-toggle]");
    if (deck) {
      // The four-colour French deck: a preference cookie the server reads when it draws the table.
      var four = deck.getAttribute("aria-pressed") !== "true";
      document.cookie = "tapet_deck=" + (four ? "fr4" : "fr") + "; path=/; max-age=31536000; SameSite=Lax";
      window.location.reload();
      return;
    }
    var toggle = ev.target.closest("[data-toggle-class]");
    if (toggle) {
      var cls = toggle.getAttribute("data-toggle-class");
      var on = document.body.classList.toggle(cls);
      toggle.setAttribute("aria-pressed", on ? "true" : "false");
    }
  });

  document.addEventListener("change", function (ev) {
    if (ev.target.id !== "game-select") return;
    var game = ev.target.value;
    document.querySelectorAll("fieldset.options[data-game]").forEach(function (fs) {
      var mine = fs.getAttribute("data-game") === game;
      fs.hidden = !mine;
      fs.disabled = !mine;
    });
  });

  function offline(show) {
    var el = document.querySelector("[data-offline]");
    if (el) el.hidden = !show;
  }
  document.addEventListener("htmx:wsOpen", function () { offline(false); });
  document.addEventListener("htmx:wsClose", function () { offline(true); });

  // A push carries the view's seq; never replace a newer table by an older one.
  document.addEventListener("htmx:oobBeforeSwap", function (ev) {
    var d = ev.detail || {};
    var target = d.target, incoming = d.fragment;
    if (!target || !incoming || !target.hasAttribute || !target.hasAttribute("data-seq")) return;
    var el = incoming.getAttribute ? incoming : null;
    if (!el || !el.hasAttribute("data-seq")) el = incoming.querySelector && incoming.querySelector("[data-seq]");
    if (!el) return;
    var now = parseInt(target.getAttribute("data-seq"), 10);
    var next = parseInt(el.getAttribute("data-seq"), 10);
    if (!isNaN(now) && !isNaN(next) && next < now) d.shouldSwap = false;
  });

  // Messages fade after a while so a stale one does not hang over the table.
  document.addEventListener("htmx:afterSwap", function (ev) {
    if (!ev.detail || !ev.detail.target || ev.detail.target.id !== "flash") return;
    var msg = ev.detail.target.querySelector(".msg");
    if (msg) setTimeout(function () { if (msg.isConnected) msg.remove(); }, 8000);
  });
})();
