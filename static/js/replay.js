/* The replay page (templates/records/replay.html): ← and → step through the deal;
   a card of "What each card cost" opens its step.
   The steps are plain links, so the page works without this file; with it, a step
   is fetched and swapped in place (no full reload) and the URL follows. */
(function () {
  "use strict";

  var busy = false;   /* a step being fetched */
  var queued = 0;     /* arrow presses while it was: +1 a Next, -1 a Back */

  function go(link) {
    if (!link) { queued = 0; return; }  /* the deal's first or last step */
    var fromCosts = !!(link.closest && link.closest("#costs"));
    var url = link.getAttribute("href");
    busy = true;
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
        busy = false;
        /* presses made meanwhile follow the new step's links, one at a time */
        if (queued > 0) { queued--; go(document.getElementById("replay-next")); }
        else if (queued < 0) { queued++; go(document.getElementById("replay-prev")); }
      })
      .catch(function () { window.location.href = url; });
  }

  function arrow(step) {
    if (busy) { queued += step; return; }
    go(document.getElementById(step > 0 ? "replay-next" : "replay-prev"));
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
    if (ev.key === "ArrowLeft") { ev.preventDefault(); arrow(-1); }
    else if (ev.key === "ArrowRight") { ev.preventDefault(); arrow(1); }
  });

  document.addEventListener("click", function (ev) {
    var link = ev.target.closest && ev.target.closest("#replay-prev, #replay-next, #costs a[data-step]");
    if (!link || ev.button !== 0 || ev.ctrlKey || ev.metaKey) return;
    ev.preventDefault();
    go(link);
  });
})();
