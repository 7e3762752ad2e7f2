// botarena viewer: the replay page. Keys: ArrowLeft/ArrowRight one ply,
// Home/End, PageUp/PageDown ten plies. The ply is kept in the URL's hash
// (#ply=12), so a link opens there.
"use strict";
(function () {
  const rp = JSON.parse(document.getElementById("data").textContent);
  const frames = rp.frames || [];
  const last = frames.length - 1;
  const board = new Board();
  const moves = document.getElementById("moves");
  document.getElementById("plies").textContent = last;
  for (let i = 1; i <= last; i++) moves.appendChild(moveItem(i, frames[i].move || "…", "#ply=" + i));
  fitMoves(moves);
  let ply = -1;

  function fromHash() {
    const m = /^#(?:ply=)?(\d+)$/.exec(location.hash);
    return m ? Math.min(parseInt(m[1], 10), last) : 0;
  }

  function go(i) {
    i = Math.max(0, Math.min(last, i));
    if (i === ply) return;
    ply = i;
    board.show(frames[i], i);
    moves.querySelectorAll(".current").forEach(e => e.classList.remove("current"));
    const li = moves.children[i - 1];
    if (li) { li.classList.add("current"); li.scrollIntoView({block: "nearest"}); }
    const want = "#ply=" + i;
    if (location.hash !== want) history.replaceState(null, "", want);
  }

  const steps = {ArrowLeft: -1, ArrowRight: 1, PageUp: -10, PageDown: 10};
  document.addEventListener("keydown", ev => {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const t = ev.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
    if (ev.key in steps) go(ply + steps[ev.key]);
    else if (ev.key === "Home") go(0);
    else if (ev.key === "End") go(last);
    else return;
    ev.preventDefault();
  });
  const buttons = {first: () => 0, back10: () => ply - 10, prev: () => ply - 1, next: () => ply + 1, fwd10: () => ply + 10, last: () => last};
  for (const [b, to] of Object.entries(buttons)) {
    document.getElementById(b).addEventListener("click", () => go(to()));
  }
  window.addEventListener("hashchange", () => go(fromHash()));
  go(fromHash());
})();
