/* The replay page (templates/records/replay.html): ← and → step through the deal.
   The steps are plain links, so the page works without this file; with it, a step
   is fetched and swapped in place (no full reload) and the URL follows. */
(function () {
  "use strict";

  function go(link) {
    if (!link) return;
    var url = link.getAttribute("href");
    fetch(url, { headers: { "Accept": "text/html" } })
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.text(); })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.getElementById("replay");
        var old = document.getElementById("replay");
        if (!fresh || !old) { window.location.href = url; return; }
        old.replaceWith(fresh);
        document.title = doc.title;
        history.replaceState(null, "", url);
      })
      .catch(function () { window.location.href = url; });
  }

  document.addEventListener("keydown", function (ev) {
    if (ev.altKey || ev.ctrlKey || ev.metaKey || ev.shiftKey) return;
    var tag = (ev.target && ev.target.tagName) || "";
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
    if (ev.key === "ArrowLeft") { ev.preventDefault(); go(document.getElementById("replay-prev")); }
    else if (ev.key === "ArrowRight") { ev.preventDefault(); go(document.getElementById("replay-next")); }
  });

  document.addEventListener("click", function (ev) {
    var link = ev.target.closest && ev.target.closest("#replay-prev, #replay-next");
    if (!link || ev.button !== 0 || ev.ctrlKey || ev.metaKey) return;
    ev.preventDefault();
    go(link);
  });
})();
