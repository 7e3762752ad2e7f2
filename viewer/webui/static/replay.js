// botarena viewer: the replay page. The page holds the moves; the frame of
// each ply is fetched from the viewer when it is shown (the last few kept,
// the next one fetched ahead). Keys: ArrowLeft/ArrowRight one ply,
// Home/End, PageUp/PageDown ten plies. The ply is kept in the URL's hash
// (#ply=12), so a link opens there. The "Save position" link follows the
// ply shown (the start file the viewer cuts there), and the output panel
// shows what the programs printed for it, as text only.
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("data").textContent);
  const list = data.moves || [];
  const last = list.length;
  const board = new Board(() => pump());
  const moves = document.getElementById("moves");
  for (let i = 1; i <= last; i++) moves.appendChild(moveItem(i, list[i - 1] || "…", "#ply=" + i));
  fitMoves(moves);

  const keep = 64;          // frames kept in the page
  const cache = new Map();  // "ply|view" -> frame, oldest first
  let want = 0;             // the ply asked for
  let shown = "";           // the key of the frame shown
  let busy = false;         // a fetch is under way
  let failed = "";          // the key whose fetch failed for good

  const keyOf = (ply, view) => ply + "|" + view;

  function remember(k, f) {
    cache.delete(k);
    cache.set(k, f);
    while (cache.size > keep) cache.delete(cache.keys().next().value);
  }

  // The programs' output of the ply shown: one fetch at a time, the latest
  // ply wanted fetched once the one under way is in.
  const save = document.getElementById("save-start");
  const outNote = document.getElementById("output-note");
  const outParts = document.getElementById("output-parts");
  let outWant = -1, outShown = -1, outBusy = false;

  function showOutput(body) {
    outNote.textContent = body.note || "";
    outParts.replaceChildren();
    for (const part of body.parts || []) {
      const h = document.createElement("h3");
      let title = part.name;
      if (part.mover) title += " (the program that made this ply)";
      if (part.cut > 0) title += " (its end: " + part.cut + " bytes before left out)";
      h.textContent = title;
      const pre = document.createElement("pre");
      pre.className = "mono" + (part.mover ? " mover" : "");
      pre.textContent = part.text;
      outParts.append(h, pre);
    }
  }

  async function pumpOutput() {
    if (outBusy || outWant === outShown) return;
    const ply = outWant;
    outBusy = true;
    let body;
    try {
      const resp = await fetch(data.output + "&ply=" + ply, {cache: "no-store"});
      body = await resp.json();
      if (!resp.ok) body = {note: body.error || resp.statusText};
    } catch (e) {
      body = {note: "the viewer does not answer (" + e + ")"};
    }
    outBusy = false;
    outShown = ply;
    if (ply === outWant) showOutput(body);
    pumpOutput();
  }

  function display(f) {
    board.show(f, f.ply);
    save.href = data.start + "&ply=" + f.ply;
    outWant = f.ply;
    pumpOutput();
    shown = keyOf(f.ply, f.view || "");
    moves.querySelectorAll(".current").forEach(e => e.classList.remove("current"));
    const li = moves.children[f.ply - 1];
    if (li) { li.classList.add("current"); li.scrollIntoView({block: "nearest"}); }
    const h = "#ply=" + f.ply;
    if (location.hash !== h) history.replaceState(null, "", h);
  }

  // fetchFrame fetches one frame; it resolves to the frame, or to
  // {error, retry} when there is none.
  async function fetchFrame(ply, view) {
    let url = data.frame + "&ply=" + ply;
    if (view) url += "&view=" + encodeURIComponent(view);
    try {
      const resp = await fetch(url, {cache: "no-store"});
      const body = await resp.json();
      if (resp.ok) return body;
      return {error: body.error || resp.statusText, retry: resp.status === 503};
    } catch (e) {
      return {error: "the viewer does not answer (" + e + ")", retry: true};
    }
  }

  // pump shows the ply wanted, fetching its frame if need be, one fetch at
  // a time; once it is shown, it fetches the next ply ahead.
  async function pump() {
    if (busy) return;
    const view = board.wanted();
    const k = keyOf(want, view);
    if (cache.has(k)) {
      if (shown !== k) display(cache.get(k));
      const ahead = keyOf(want + 1, view);
      if (want < last && !cache.has(ahead) && failed !== ahead) {
        busy = true;
        const f = await fetchFrame(want + 1, view);
        busy = false;
        if (!f.error) remember(ahead, f);
        pump();
      }
      return;
    }
    if (failed === k) return;
    busy = true;
    const f = await fetchFrame(want, view);
    busy = false;
    if (f.error) {
      board.fail(f.error);
      if (f.retry) setTimeout(pump, 500);
      else failed = k;
      return;
    }
    remember(keyOf(f.ply, f.view || ""), f);
    if ((f.view || "") !== view) remember(k, f); // no such view: the spectator's picture
    pump();
  }

  function go(i) {
    want = Math.max(0, Math.min(last, i));
    pump();
  }

  function fromHash() {
    const m = /^#(?:ply=)?(\d+)$/.exec(location.hash);
    return m ? Math.min(parseInt(m[1], 10), last) : 0;
  }

  const steps = {ArrowLeft: -1, ArrowRight: 1, PageUp: -10, PageDown: 10};
  document.addEventListener("keydown", ev => {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const t = ev.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
    if (ev.key in steps) go(want + steps[ev.key]);
    else if (ev.key === "Home") go(0);
    else if (ev.key === "End") go(last);
    else return;
    ev.preventDefault();
  });
  const buttons = {first: () => 0, back10: () => want - 10, prev: () => want - 1, next: () => want + 1, fwd10: () => want + 10, last: () => last};
  for (const [b, to] of Object.entries(buttons)) {
    document.getElementById(b).addEventListener("click", () => go(to()));
  }
  window.addEventListener("hashchange", () => go(fromHash()));
  go(fromHash());
})();
