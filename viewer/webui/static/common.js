// botarena viewer: what the live and replay pages share.
"use strict";

// svgURL makes a board picture (an <svg> element's text) into an image URL.
// Shown through <img>, the picture can run nothing and load nothing.
function svgURL(svg) {
  return "data:image/svg+xml;charset=utf-8," + encodeURIComponent(svg || "");
}

// Board shows the frames of a game in the page: the picture (as the
// spectator sees it, or as a player does when the frame has views), the
// clocks and the status. A live frame's views are its pictures by name; a
// replay's frame (from /replay/frame) names its views, its board being the
// one asked for. onView, when given, is called when the viewer picks
// another view; by default the frame shown is shown again.
class Board {
  constructor(onView) {
    this.img = document.getElementById("board");
    this.view = document.getElementById("view");
    this.choice = document.getElementById("view-choice");
    this.shownSrc = "";
    this.frame = null;
    this.viewNames = "";
    this.onView = onView || (() => { if (this.frame) this.show(this.frame, this.ply); });
    this.view.addEventListener("change", () => {
      try { localStorage.setItem("botarena.view", this.view.value); } catch (e) {}
      this.view.blur(); // give the keys back to the replay's stepping
      this.onView();
    });
  }

  // wanted is the view to show: the one chosen, or the one chosen last time.
  wanted() {
    if (this.viewNames !== "") return this.view.value;
    try { return localStorage.getItem("botarena.view") || ""; } catch (e) { return ""; }
  }

  // views keeps the perspective menu in step with the frame's views.
  views(frame) {
    const names = (Array.isArray(frame.views) ? frame.views.slice() : Object.keys(frame.views || {})).sort();
    const key = names.join(",");
    if (key === this.viewNames) return;
    const want = this.wanted();
    this.viewNames = key;
    this.view.textContent = "";
    const opt = (value, text) => {
      const o = document.createElement("option");
      o.value = value; o.textContent = text;
      this.view.appendChild(o);
    };
    opt("", "spectator");
    for (const n of names) opt(n, n + " player");
    this.view.value = names.includes(want) ? want : "";
    this.choice.hidden = names.length === 0;
  }

  // show draws frame; ply is what the ply counter says (the frame's own
  // ply when not given).
  show(frame, ply) {
    this.frame = frame;
    if (ply === undefined) ply = frame.ply;
    this.ply = ply;
    this.views(frame);
    const v = this.view.value;
    let svg = frame.board;
    if (!Array.isArray(frame.views) && v && frame.views && frame.views[v]) svg = frame.views[v];
    const src = svgURL(svg);
    if (src !== this.shownSrc) {
      this.img.src = src;
      this.shownSrc = src;
    }
    document.getElementById("ply").textContent = ply;
    const status = document.getElementById("status");
    status.textContent = frame.status || "";
    status.classList.remove("failed");
    for (const i of [0, 1]) {
      const c = (frame.clocks || [])[i] || "";
      const el = document.getElementById("clock" + i);
      el.textContent = c;
      el.hidden = c === "";
      document.getElementById("p" + i).classList.toggle("to-move", frame.toMove === i);
    }
  }

  // fail says in the status line why no frame is shown.
  fail(text) {
    const status = document.getElementById("status");
    status.textContent = text;
    status.classList.add("failed");
  }
}

// fitMoves gives the move list as many columns as its longest move allows.
function fitMoves(list) {
  let longest = 0;
  for (const li of list.children) longest = Math.max(longest, (li.dataset.move || "").length);
  list.classList.toggle("w2", longest > 7 && longest <= 12);
  list.classList.toggle("w1", longest > 12);
}

// moveItem makes the move list's entry for a ply.
function moveItem(ply, move, href) {
  const li = document.createElement("li");
  li.value = ply;
  li.dataset.ply = ply;
  li.dataset.move = move;
  li.title = ply + ". " + move;
  const a = document.createElement(href ? "a" : "span");
  if (href) a.href = href;
  const n = document.createElement("span");
  n.className = "n";
  n.textContent = ply + ".";
  a.append(n, " " + move);
  li.appendChild(a);
  return li;
}

// addMoves brings the move list up to a game state's moves: those from
// ply st.from + 1 on (a state with a lower from cuts the list: a
// take-back). count is how many the list had; it returns how many it has.
function addMoves(list, st, count) {
  if (st.from < count) {
    while (list.children.length > st.from) list.lastChild.remove();
    count = st.from;
  }
  (st.moves || []).forEach((m, i) => list.appendChild(moveItem(st.from + i + 1, m, "")));
  if ((st.moves || []).length) fitMoves(list);
  return st.from + (st.moves || []).length;
}

// showResult shows a finished game's result in el, with the link to its
// record's replay.
function showResult(el, st) {
  el.hidden = false;
  el.textContent = "";
  el.append("Result: " + (st.result || "none"));
  if (st.replay) {
    const a = document.createElement("a");
    a.href = st.replay; a.textContent = "replay the record"; a.id = "replay-link";
    el.append(" · ", a);
  }
}
