/* The replay page (templates/records/replay.html): ← and → step through the deal;
   a card of "What each card cost" opens its step.
   The steps are plain links, so the page works without this file; with it, a step
   is fetched and swapped in place (no full reload) and the URL follows. */
(function () {
  "use strict";

  function go(link) {
    if (!link) return;
    var fromCosts = !!(link.closest && link.closest("#costs"));
    var url = link.getAttribute("href");
    fetch(url, { headers: { "Accept": "text/html" } })
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.text(); })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.getElementById("replay");
        var old = document.getElementById("replay");
        if (!fresh || !old) { window.location.href = url; return; }
        old.replaceWith(fresh);
        markCost(fresh.getAttribute("data-step"));
        /* a card of the costs, far below the table on a phone: show its step */
        if (fromCosts) fresh.scrollIntoView({ block: "start" });
        document.title = doc.title;
        history.replaceState(null, "", url);
      })
      .catch(function () { window.location.href = url; });
  }

  /* the solver's costs (#costs) stay on the page: mark the card of the new step */
  function markCost(step) {
    var cells = document.querySelectorAll("#costs a[data-step]");
    for (var i = 0; i < cells.length; i++) {
      var on = cells[i].getAttribute("data-step") === step;
      cells[i].classList.toggle("current", on);
      if (on) cells[i].setAttribute("aria-current", "step"); else cells[i].removeAttribute("aria-current");
    }
  }

  /* the costs arrive after the reader may have stepped on: mark the step shown now */
  document.addEventListener("htmx:afterSwap", function (ev) {
    var replay = document.getElementById("replay");
    if (ev.target && ev.target.id === "costs" && replay) markCost(replay.getAttribute("data-step"));
  });

  document.addEventListener("keydown", function (ev) {
    if (ev.altKey || ev.ctrlKey || ev.metaKey || ev.shiftKey) return;
    var tag = (ev.target && ev.target.tagName) || "";
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
    if (ev.key === "ArrowLeft") { ev.preventDefault(); go(document.getElementById("replay-prev")); }
    else if (ev.key === "ArrowRight") { ev.preventDefault(); go(document.getElementById("replay-next")); }
  });

  document.addEventListener("click", function (ev) {
    var link = ev.target.closest && ev.target.closest("#replay-prev, #replay-next, #costs a[data-step]");
    if (!link || ev.button !== 0 || ev.ctrlKey || ev.metaKey) return;
    ev.preventDefault();
    go(link);
  });
})();
