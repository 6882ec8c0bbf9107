/* Tapet: the little behaviour htmx does not give us. No build step.
   - [data-dismiss] closes a flash message;
   - [data-toggle-class="x"] toggles class x on <body> (state survives socket swaps);
   - [data-deck-toggle] switches the French deck between two and four colours (a cookie);
   - the lobby's game <select> shows that game's options fieldset only;
   - a banner while the page socket is down;
   - a server push older than what is shown is ignored (data-seq);
   - the language selector submits itself (a pointer pick at once; keys: Enter or leaving it);
   - the live region reads the other players' moves ([data-say] with a data-say-key);
   - cards arriving on the table get a short animation (class "fresh");
   - keyboard: focus stays on the table after a push, arrows move along the hand;
   - the move clock counts down; optional sounds (off by default, WebAudio);
   - a double tap never lands its second half on a button the first one drew;
   - a won trick stays as long as the player chose (the table's menu);
   - a game's own word keeps its gloss until used; a message shows under the score bar. */
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

  // Contrée's bidding panel: a value is either a chip or one from the list of higher
  // values; choosing one clears the other, so the suit button bids what is shown.
  document.addEventListener("change", function (ev) {
    var el = ev.target;
    if (!el.matches) return;
    var form = el.closest("form.contree-bids");
    if (!form) return;
    var more = form.querySelector("select[name=bid_value_more]");
    if (el.matches("select[name=bid_value_more]") && el.value) {
      form.querySelectorAll("input[name=bid_value]").forEach(function (r) { r.checked = false; });
    } else if (el.matches("input[name=bid_value]") && more) {
      more.value = "";
    }
  });

  // A rules preset (contrée: ffb, coinche, colver) sets every option it fixes: the
  // fields of the same game follow it; the player may still change one afterwards.
  document.addEventListener("change", function (ev) {
    var sel = ev.target;
    if (!sel.matches || !sel.matches("select[name=opt_preset]")) return;
    var fs = sel.closest("fieldset");
    if (!fs) return;
    fs.querySelectorAll("[data-presets]").forEach(function (el) {
      var values = JSON.parse(el.getAttribute("data-presets"));
      if (!(sel.value in values)) return;
      var v = values[sel.value];
      if (el.type === "checkbox") el.checked = v === true;
      else el.value = String(v);
    });
  });

  function offline(show) {
    var el = document.querySelector("[data-offline]");
    if (el) el.hidden = !show;
  }
  document.addEventListener("htmx:wsOpen", function () { offline(false); });
  // How many pushes this page has shown: the first one redraws the whole table (tests wait for it).
  document.addEventListener("htmx:wsAfterMessage", function () {
    var root = document.documentElement;
    root.setAttribute("data-ws-messages", String(Number(root.getAttribute("data-ws-messages") || 0) + 1));
  });
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

  // Messages fade after a while so a stale one does not hang over the table; so does a
  // page's own news ("The championship is created."), which on a phone covers its title.
  function fadeLater(msg) {
    if (msg) setTimeout(function () { if (msg.isConnected) msg.remove(); }, 8000);
  }
  document.addEventListener("htmx:afterSwap", function (ev) {
    if (!ev.detail || !ev.detail.target || ev.detail.target.id !== "flash") return;
    fadeLater(ev.detail.target.querySelector(".msg"));
  });
  document.addEventListener("DOMContentLoaded", function () {
    fadeLater(document.querySelector("#flash .msg-info"));
  });

  // A hint marks the suggested card or call on the table; a push of the same table
  // (same seq) redraws the prompt, so the hint is put back until the table moves on.
  var lastHint = null;
  function tableSeq() {
    var main = document.getElementById("room-main");
    return main ? main.getAttribute("data-seq") : null;
  }
  function markHint() {
    document.querySelectorAll(".hinted-choice").forEach(function (b) { b.classList.remove("hinted-choice"); });
    var holder = document.getElementById("hint");
    if (!lastHint || !holder) return;
    if (tableSeq() !== lastHint.seq) { lastHint = null; return; }
    if (!holder.querySelector("[data-hint-action]")) {
      holder.innerHTML = lastHint.html;
      if (window.htmx) window.htmx.process(holder);
    }
    var box = holder.querySelector("[data-hint-action]");
    if (!box) return;
    var want = box.getAttribute("data-hint-action");
    document.querySelectorAll('#room-main button[name="action"]').forEach(function (b) {
      if (b.value === want && !box.contains(b)) b.classList.add("hinted-choice");
    });
  }
  // The hint's × (or Escape while it is open) closes it and unmarks the card; the focus
  // goes back to the Hint button.
  function closeHint() {
    var holder = document.getElementById("hint");
    if (!holder || !holder.querySelector(".hint-box")) return false;
    holder.innerHTML = "";
    lastHint = null;
    markHint();
    var ask = document.querySelector("[data-testid=hint]");
    if (ask) ask.focus({ preventScroll: true });
    return true;
  }
  document.addEventListener("click", function (ev) {
    if (ev.target.closest && ev.target.closest("[data-hint-close]")) closeHint();
  });
  // A refused hint (too many at once, a stale table) is a message like any other: it
  // shows where the others do (#flash), not in the hint's box over the felt.
  document.addEventListener("htmx:beforeSwap", function (ev) {
    var d = ev.detail || {};
    if (!d.target || d.target.id !== "hint" || !d.xhr || d.xhr.status < 400) return;
    var flash = document.getElementById("flash");
    if (flash) d.target = flash;
  });
  document.addEventListener("keydown", function (ev) {
    if (ev.key === "Escape" && !document.querySelector(".trick.done.held") && closeHint()) ev.preventDefault();
  });
  document.addEventListener("htmx:afterSwap", function (ev) {
    if (!ev.detail || !ev.detail.target || ev.detail.target.id !== "hint") return;
    var box = ev.detail.target.querySelector("[data-hint-action]");
    lastHint = box ? { seq: tableSeq(), html: ev.detail.target.innerHTML } : null;
    markHint();
    // The Hint button was disabled while the bot thought, which dropped the focus: give it
    // to "Do it", right after the button, not to the hand further on.
    var play = ev.detail.target.querySelector("[data-testid=hint-play]");
    var active = document.activeElement;
    if (play && (!active || active === document.body || active.closest(".hint-form"))) play.focus({ preventScroll: true });
    // With large text the hint opens inside the prompt, which may be below the screen's
    // edge: bring the answer into view (never moved when it is already seen)
    var shown = ev.detail.target.querySelector(".hint-box");
    if (shown) {
      var r = shown.getBoundingClientRect();
      if (r.top < 0 || r.bottom > window.innerHeight) shown.scrollIntoView({ block: "nearest" });
    }
  });

  // ---------------------------------------------------------------- language
  // A pick with the mouse or a finger goes at once; from the keyboard the arrows only move
  // the choice (Chrome fires "change" on each arrow of a closed select), Enter or leaving
  // the selector goes.
  var langByKeys = false;
  document.addEventListener("keydown", function (ev) {
    var select = ev.target.closest && ev.target.closest("[data-lang-form] select");
    if (!select) return;
    if (ev.key === "Enter") {
      ev.preventDefault();
      select.form.submit();
    } else if (ev.key !== "Tab") {
      langByKeys = true;
    }
  });
  document.addEventListener("change", function (ev) {
    var form = ev.target.closest && ev.target.closest("[data-lang-form]");
    if (form && !langByKeys) form.submit();
  });
  document.addEventListener("focusout", function (ev) {
    var select = ev.target.closest && ev.target.closest("[data-lang-form] select");
    if (!select) return;
    var chosen = select.querySelector("option[selected]");
    if (langByKeys && chosen && chosen.value !== select.value) select.form.submit();
    langByKeys = false;
  });
  document.addEventListener("pointerdown", function (ev) {
    if (ev.target.closest && ev.target.closest("[data-lang-form]")) langByKeys = false;
  });

  // ---------------------------------------------------------------- live region
  var said = new Set();
  var trickSeen = new Set();
  var firstRound = true;
  function announce(texts) {
    var region = document.getElementById("announce");
    if (!region || !texts.length) return;
    region.textContent = "";
    setTimeout(function () { region.textContent = texts.join(". "); }, 60);
  }
  function sayNew() {
    var texts = [];
    document.querySelectorAll("#room-main [data-say-key]").forEach(function (el) {
      var key = el.getAttribute("data-say-key"), text = el.getAttribute("data-say");
      if (said.has(key)) return;
      said.add(key);
      if (text && !firstRound) texts.push(text);
    });
    announce(texts);
    return texts.length;
  }
  function markFresh() {
    var now = new Set(), fresh = 0;
    document.querySelectorAll("#room-main .trick:not(.done) .tcard[data-card]").forEach(function (img) {
      var code = img.getAttribute("data-card");
      now.add(code);
      if (!firstRound && !trickSeen.has(code)) { img.classList.add("fresh"); fresh++; }
    });
    trickSeen = now;
    return fresh;
  }

  // ---------------------------------------------------------------- sounds (off by default)
  var audio = null;
  function soundOn() { try { return localStorage.getItem("tapet_sound") === "1"; } catch (e) { return false; } }
  function beep(freq, ms, volume) {
    if (!soundOn()) return;
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      var osc = audio.createOscillator(), gain = audio.createGain();
      osc.frequency.value = freq; osc.type = "sine";
      gain.gain.setValueAtTime(volume || 0.08, audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + ms / 1000);
      osc.connect(gain); gain.connect(audio.destination);
      osc.start(); osc.stop(audio.currentTime + ms / 1000);
    } catch (e) { /* no sound: nothing to do */ }
  }
  function syncSoundButton() {
    document.querySelectorAll("[data-sound-toggle]").forEach(function (b) {
      b.setAttribute("aria-pressed", soundOn() ? "true" : "false");
    });
  }
  document.addEventListener("click", function (ev) {
    var b = ev.target.closest("[data-sound-toggle]");
    if (!b) return;
    try { localStorage.setItem("tapet_sound", soundOn() ? "0" : "1"); } catch (e) { /* private mode */ }
    syncSoundButton();
    beep(660, 120);
  });

  // ---------------------------------------------------------------- the move clock
  function tick() {
    document.querySelectorAll(".clock[data-deadline]").forEach(function (el) {
      var left = Math.max(0, Math.round((Date.parse(el.getAttribute("data-deadline")) - Date.now()) / 1000));
      if (isNaN(left)) return;
      el.textContent = left + "s";
      el.classList.toggle("low", left <= 10);
    });
  }
  setInterval(tick, 1000);

  // ---------------------------------------------------------------- keyboard
  var focusKey = null;
  function keyOf(el) {
    if (!el || !el.closest || !el.closest("#room-main")) return null;
    if (el.getAttribute("data-card")) return "[data-card='" + el.getAttribute("data-card") + "']";
    if (el.id) return "#" + el.id;
    return "main-any";
  }
  document.addEventListener("htmx:oobBeforeSwap", function () { focusKey = keyOf(document.activeElement) || focusKey; });
  document.addEventListener("htmx:beforeRequest", function () { focusKey = keyOf(document.activeElement) || focusKey; });
  function restoreFocus() {
    var active = document.activeElement;
    if (!focusKey || (active && active !== document.body && document.contains(active))) return;
    var main = document.getElementById("room-main");
    if (!main) return;
    // Declaring comes before the first card: its buttons take the focus first (Enter on a
    // card would play it and give the declaration up).
    var target = main.querySelector("[data-testid=declares] button");
    if (!target && focusKey !== "main-any") target = main.querySelector(".hand " + focusKey + ".playable") || null;
    target = target || main.querySelector(".hand .card.playable") ||
      main.querySelector("[data-testid=calls] button:not([disabled]), [data-testid=declares] button") ||
      main.querySelector(".hand .card:not([disabled])") || main.querySelector("[data-testid=status]");
    if (target) {
      if (!target.hasAttribute("tabindex") && target.matches("p")) target.setAttribute("tabindex", "-1");
      target.focus({ preventScroll: true });
    }
  }
  document.addEventListener("keydown", function (ev) {
    var card = ev.target.closest && ev.target.closest(".hand .card");
    if (!card || (ev.key !== "ArrowLeft" && ev.key !== "ArrowRight")) return;
    var all = Array.prototype.filter.call(card.parentNode.querySelectorAll(".card"), function (c) { return !c.disabled; });
    // on your turn the arrows step over the cards you may not play (Enter on one tells why)
    var playable = all.filter(function (c) { return c.getAttribute("aria-disabled") !== "true"; });
    var cards = playable.length && playable.indexOf(card) >= 0 ? playable : all;
    var i = cards.indexOf(card) + (ev.key === "ArrowRight" ? 1 : -1);
    if (cards[i]) { cards[i].focus(); ev.preventDefault(); }
  });
  // A select with data-fills="ID" puts its chosen option's data-value into the field ID
  // (a championship's "correct a deal": the box shows the deal being corrected).
  document.addEventListener("change", function (ev) {
    var select = ev.target;
    if (!select.matches || !select.matches("select[data-fills]")) return;
    var field = document.getElementById(select.getAttribute("data-fills"));
    var option = select.options[select.selectedIndex];
    if (field && option && option.hasAttribute("data-value")) field.value = option.getAttribute("data-value");
  });
  document.addEventListener("click", function (ev) {
    var card = ev.target.closest(".hand .card[aria-disabled=true]");
    // not playable: outside your turn a tap does nothing; on your turn it is sent, and
    // the server answers with the rule that forbids the card (in the message area)
    if (card && card.type !== "submit") ev.preventDefault();
  });

  // ---------------------------------------------------------------- double taps
  // A double tap must not become a second, unchosen move: the first tap's answer redraws
  // the prompt, and the second tap would land on whatever button took the first one's
  // place ("Take" becomes "Declare"). A tap on a move's button drawn after the previous
  // tap, and less than DOUBLE_TAP_MS after it, is dropped. A button drawn before the
  // previous tap (the same card tapped twice) goes through: the server answers a repeat.
  var DOUBLE_TAP_MS = 400;
  var lastTap = 0;
  function stampButtons() {
    var now = Date.now();
    document.querySelectorAll("#room-main form[action$='/moves'] button:not([data-drawn-at])").forEach(function (b) {
      b.setAttribute("data-drawn-at", String(now));
    });
  }
  document.addEventListener("click", function (ev) {
    var b = ev.target.closest && ev.target.closest("#room-main form[action$='/moves'] button");
    if (!b) return;
    var now = Date.now();
    // not stamped yet: drawn since the last stamping, so after the previous tap
    var drawn = b.hasAttribute("data-drawn-at") ? Number(b.getAttribute("data-drawn-at")) : Infinity;
    if (now - lastTap < DOUBLE_TAP_MS && drawn > lastTap) {
      ev.preventDefault();
      ev.stopImmediatePropagation();
      return;
    }
    lastTap = now;
  }, true);
  // The chat's reactions and Send likewise: its answer redraws the form with a new message
  // id, so a second tap on the redrawn form would post the message again (a fresh tester
  // got two "Thanks" from one double tap). A chat button that was not there at the
  // previous chat tap, tapped less than DOUBLE_TAP_MS after it, is dropped.
  var lastChatTap = 0;
  document.addEventListener("click", function (ev) {
    var b = ev.target.closest && ev.target.closest("form.chat-form button");
    if (!b) return;
    var now = Date.now();
    if (now - lastChatTap < DOUBLE_TAP_MS && !b.hasAttribute("data-before-tap")) {
      ev.preventDefault();
      ev.stopImmediatePropagation();
      return;
    }
    lastChatTap = now;
    document.querySelectorAll("form.chat-form button").forEach(function (x) {
      x.setAttribute("data-before-tap", "");
    });
  }, true);

  // ---------------------------------------------------------------- a game's own words
  // "Vaig · take": the game's own word keeps its gloss until the player has used one of
  // the calls it was shown on; then only the word (and its title) stays. The keys seen are
  // kept in localStorage and set on <html data-glossed>, which the CSS reads, so a pushed
  // table never flashes the gloss again.
  function glossedKeys() { try { return (localStorage.getItem("tapet_glossed") || "").split(" ").filter(Boolean); } catch (e) { return []; } }
  function syncGlossed() { document.documentElement.setAttribute("data-glossed", glossedKeys().join(" ")); }
  syncGlossed();
  document.addEventListener("click", function (ev) {
    var b = ev.target.closest && ev.target.closest("button[data-glossed]");
    if (!b || !b.form) return;
    var keys = glossedKeys();
    b.form.querySelectorAll("[data-glossed]").forEach(function (el) {
      var key = el.getAttribute("data-glossed");
      if (keys.indexOf(key) < 0) keys.push(key);
    });
    try { localStorage.setItem("tapet_glossed", keys.join(" ")); } catch (e) { /* private mode */ }
    syncGlossed();
  });

  // ---------------------------------------------------------------- a won trick stays
  // The server shows a won trick until the next card is played (a bot answers in 0.7 s).
  // The player chooses how long it stays (the table's menu, localStorage "tapet_trick_hold":
  // milliseconds, or "tap": until tapped; 1.5 s by default, as card sites keep it about
  // that long): when a push has moved on, a copy of the won trick is kept over the middle
  // of the felt, the new cards under it, until the time is up, the player taps it (or
  // presses Escape) or plays a card. Only the page waits: the game and the bots do not.
  var HOLD_DEFAULT = 1500;
  var held = null;          // {key, html, until, timer}
  var doneSince = {};       // data-say-key of a won trick -> when it was first shown
  function holdSetting() {
    try { return localStorage.getItem("tapet_trick_hold") || String(HOLD_DEFAULT); } catch (e) { return String(HOLD_DEFAULT); }
  }
  function holdMs() {
    var v = holdSetting();
    if (v === "tap") return Infinity;
    var n = Number(v);
    return isFinite(n) && n >= 0 ? n : HOLD_DEFAULT;
  }
  function gatherDelay(el, shownAt) {
    // the cards go to the winner in the last 0.45 s of the time the trick stays
    var ms = holdMs();
    var delay = ms === Infinity ? 1e7 : Math.max(0, ms - 450) - (Date.now() - shownAt);
    el.style.setProperty("--gather-delay", Math.round(delay) + "ms");
  }
  function releaseHeld() {
    if (!held) return;
    clearTimeout(held.timer);
    held = null;
    document.querySelectorAll(".trick.done.held").forEach(function (el) { el.remove(); });
    document.querySelectorAll(".center.holding").forEach(function (c) {
      c.classList.remove("holding");
      // the cards played meanwhile arrive now
      c.querySelectorAll(".trick:not(.done) .tcard").forEach(function (img) { img.classList.add("fresh"); });
    });
  }
  function showHeld() {
    var done = document.querySelector("#room-main .center .trick.done:not(.held)");
    if (done) {
      var key = done.getAttribute("data-say-key");
      if (!(key in doneSince)) doneSince[key] = Date.now();
      gatherDelay(done, doneSince[key]);
      if (held && held.key !== key) releaseHeld();
      return;  // the server still shows the trick itself
    }
    if (!held) return;
    if (Date.now() >= held.until) { releaseHeld(); return; }
    var center = document.querySelector("#room-main .center");
    if (!center) { releaseHeld(); return; }
    if (!center.querySelector(".trick.done.held")) {
      var box = document.createElement("div");
      box.innerHTML = held.html;
      var copy = box.firstElementChild;
      copy.classList.add("held");
      copy.setAttribute("tabindex", "0");
      copy.removeAttribute("data-say-key");
      copy.querySelectorAll("[data-say-key]").forEach(function (el) { el.removeAttribute("data-say-key"); });
      gatherDelay(copy, held.shownAt);
      center.insertBefore(copy, center.firstChild);
    }
    center.classList.add("holding");
  }
  document.addEventListener("htmx:oobBeforeSwap", function (ev) {
    var target = ev.detail && ev.detail.target;
    if (!target || target.id !== "room-main") return;
    var done = target.querySelector(".center .trick.done:not(.held)");
    if (!done) return;
    var key = done.getAttribute("data-say-key");
    var shownAt = doneSince[key] || Date.now();
    var ms = holdMs();
    if (Date.now() - shownAt >= ms) return;
    var incoming = ev.detail.fragment;
    var same = incoming && incoming.querySelector && incoming.querySelector('.trick.done[data-say-key="' + key + '"]');
    if (same) return;  // the same trick, drawn again
    releaseHeld();
    held = { key: key, html: done.outerHTML, shownAt: shownAt, until: shownAt + ms };
    if (ms !== Infinity) held.timer = setTimeout(releaseHeld, shownAt + ms - Date.now());
  });
  document.addEventListener("click", function (ev) {
    var card = ev.target.closest && ev.target.closest(".hand .card");
    if (card) {
      // playing a card moves on: the won trick on the felt is not kept after it
      var done = document.querySelector("#room-main .center .trick.done:not(.held)");
      if (done) doneSince[done.getAttribute("data-say-key")] = 0;
    }
    if (held && (card || ev.target.closest(".trick.done.held"))) releaseHeld();
  });
  document.addEventListener("keydown", function (ev) {
    if (held && (ev.key === "Escape" || ((ev.key === "Enter" || ev.key === " ") && ev.target.closest && ev.target.closest(".trick.done.held")))) {
      releaseHeld();
      ev.preventDefault();
    }
  });
  function syncHoldSelect() {
    document.querySelectorAll("[data-trick-hold]").forEach(function (sel) { sel.value = holdSetting(); });
  }
  document.addEventListener("change", function (ev) {
    if (!ev.target.matches || !ev.target.matches("[data-trick-hold]")) return;
    try { localStorage.setItem("tapet_trick_hold", ev.target.value); } catch (e) { /* private mode */ }
  });

  // ---------------------------------------------------------------- where messages show
  // A message (a refused card's rule) shows under the score bar, never over it; on other
  // pages under the header, which a phone wraps onto two lines (the message covered the
  // account links): the page puts that bottom edge in --flash-top, which .flash reads.
  function placeFlash() {
    var bar = document.querySelector("#room-main [data-testid=scorebar]") ||
      document.querySelector("body > header.topbar");
    var root = document.documentElement;
    if (!bar) { root.style.removeProperty("--flash-top"); return; }
    // a page opened scrolled down has its header above the screen: the top edge then
    root.style.setProperty("--flash-top", Math.round(Math.max(0, bar.getBoundingClientRect().bottom) + 4) + "px");
  }
  window.addEventListener("resize", placeFlash);
  document.addEventListener("DOMContentLoaded", placeFlash);

  // ---------------------------------------------------------------- after every change
  var wasMyTurn = false;
  function afterChange() {
    var fresh = markFresh();
    var spoke = sayNew();
    var mine = !!document.querySelector("#room-main .prompt.my-turn");
    // The previous trick is looked at between turns: it closes when the turn comes back
    // (it would cover the trick to answer) or when there is none to show.
    if ((mine && !wasMyTurn) || !document.querySelector("#room-main .last-trick")) {
      document.body.classList.remove("show-last");
    }
    if (!firstRound) {
      if (mine && !wasMyTurn) beep(880, 160, 0.1);
      else if (fresh) beep(330, 70, 0.05);
      else if (spoke && document.querySelector("#room-main .trick.done")) beep(520, 90, 0.05);
    }
    wasMyTurn = mine;
    stampButtons();
    showHeld();
    placeFlash();
    markHint();
    restoreFocus();
    tick();
    firstRound = false;
  }
  document.addEventListener("htmx:afterSettle", afterChange);
  document.addEventListener("htmx:oobAfterSwap", function () { setTimeout(afterChange, 0); });
  document.addEventListener("DOMContentLoaded", function () { syncSoundButton(); syncHoldSelect(); afterChange(); });

  // A rematch that starts while this page is open takes everyone to its new table (a page
  // opened after it started only shows the link: the old match stays readable).
  var rematchShown = null;
  function followRematch() {
    var link = document.querySelector("[data-rematch-url]");
    if (rematchShown === null) { rematchShown = !!link; return; }
    if (link && !rematchShown) { rematchShown = true; window.location.assign(link.getAttribute("data-rematch-url")); }
  }
  document.addEventListener("DOMContentLoaded", followRematch);
  document.addEventListener("htmx:oobAfterSwap", function () { setTimeout(followRematch, 0); });
  document.addEventListener("htmx:afterSettle", followRematch);

  // "Copy the link" (the queue's partner link): shown only where the clipboard can be
  // written; the link stays selectable text for everyone else.
  function showCopyButtons() {
    if (!(navigator.clipboard && window.isSecureContext)) return;
    document.querySelectorAll("[data-copy][hidden]").forEach(function (b) { b.hidden = false; });
  }
  document.addEventListener("DOMContentLoaded", showCopyButtons);
  document.addEventListener("htmx:afterSettle", showCopyButtons);
  document.addEventListener("click", function (ev) {
    var b = ev.target.closest && ev.target.closest("[data-copy]");
    if (!b) return;
    navigator.clipboard.writeText(b.getAttribute("data-copy")).then(function () {
      b.textContent = b.getAttribute("data-copied");
    });
  });
})();
// "Your turn" and "your table is ready" while the tab is hidden (docs/invitations.md):
// the page title says so and, if this person allowed it from the table's ⚙ menu (never
// asked on load), a browser notification; both stop when the tab is visible again.
// Forms marked data-once disable their buttons once sent (a double tap sends one).
(function () {
  var baseTitle = document.title, shown = null, note = null;
  function allowed() {
    try { return "Notification" in window && Notification.permission === "granted" && localStorage.getItem("tapet_notify") === "1"; } catch (e) { return false; }
  }
  function what() {
    if (document.querySelector(".prompt.my-turn")) {
      var live = document.getElementById("room-live");
      return (live && live.getAttribute("data-turn-title")) || "\u25CF Your turn";
    }
    var ready = document.querySelector("[data-table-ready]");
    return ready ? ready.getAttribute("data-table-ready") : null;
  }
  function check() {
    var text = document.hidden ? what() : null;
    if (text === shown) return;
    if (note) { note.close(); note = null; }
    shown = text;
    if (!text) { document.title = baseTitle; return; }
    document.title = text + " \u2014 Tapet";
    if (allowed()) {
      try {
        note = new Notification(document.title, { tag: "tapet-turn", icon: "/static/icons/tapet-192.png" });
        note.onclick = function () { window.focus(); this.close(); };
      } catch (e) { note = null; }
    }
  }
  document.addEventListener("visibilitychange", check);
  document.addEventListener("htmx:wsAfterMessage", function () { setTimeout(check, 0); });
  document.addEventListener("htmx:afterSettle", check);

  function syncNotify() {
    document.querySelectorAll("[data-notify-setting]").forEach(function (p) {
      if (!("Notification" in window)) return;
      p.hidden = false;
      var on = allowed(), denied = Notification.permission === "denied";
      p.querySelector("[data-notify-ask]").hidden = on || denied;
      p.querySelector("[data-notify-on]").hidden = !on;
      p.querySelector("[data-notify-denied]").hidden = !denied;
    });
  }
  document.addEventListener("DOMContentLoaded", syncNotify);
  document.addEventListener("click", function (ev) {
    var b = ev.target.closest && ev.target.closest("[data-notify-ask]");
    if (!b || !("Notification" in window)) return;
    Notification.requestPermission().then(function (p) {
      try { localStorage.setItem("tapet_notify", p === "granted" ? "1" : "0"); } catch (e) { /* private mode */ }
      syncNotify();
    });
  });

  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (!form.hasAttribute || !form.hasAttribute("data-once")) return;
    // after the submit has read the pressed button's value
    setTimeout(function () { form.querySelectorAll("button").forEach(function (b) { b.disabled = true; }); }, 0);
  });
  document.addEventListener("focusin", function (ev) {
    if (ev.target.classList && ev.target.classList.contains("share-link")) ev.target.select();
  });
})();

// Back from an offer (?share=1) on a phone: the share panel is in the ⚙ menu; open it.
document.addEventListener("DOMContentLoaded", function () {
  var top = document.querySelector(".share-top[open]");
  var menu = document.querySelector(".table-menu");
  if (top && menu && top.offsetParent === null) menu.open = true;
});
