// botarena viewer: a seat's page, where a person plays. The "seat" events of
// /play/<id>/events bring the seat's view of the game and the question it
// is asked; an answer is posted to /play/<id>/act.
//
// A move is picked on the board: the question's areas are rectangles in
// the units of the picture's viewBox, and a choice names the areas to
// click, in order. The page highlights the areas that continue some
// choice, marks those clicked, and answers once the clicks are exactly one
// choice's (unless it has a label, or another choice goes on from there:
// then it is a button). A click that continues nothing starts again from
// that area (or from nothing). Escape clears the clicks. A Geister setup
// shows the seat's eight ghosts in the colours chosen so far; clicking two
// ghosts of different colours swaps them, and "Set Finish" answers.
//
// The stream is read with fetch rather than EventSource, so that the page
// sees why it is refused: 409 when the seat is open in another browser,
// 403 when the link opens no seat.
"use strict";
(function () {
  const page = JSON.parse(document.getElementById("data").textContent);
  const base = "/play/" + encodeURIComponent(page.ID);
  const token = "?seat=" + encodeURIComponent(page.Token);
  const mySeat = page.Seat;
  const seatName = page.SeatName || ("seat " + (mySeat + 1));
  const board = new Board();
  const img = document.getElementById("board");
  const overlay = document.getElementById("overlay");
  const moves = document.getElementById("moves");
  const conn = document.getElementById("conn");
  const notice = document.getElementById("notice");
  const turn = document.getElementById("turn");
  const prompt = document.getElementById("prompt");
  const choices = document.getElementById("choices");
  const refused = document.getElementById("refused");
  const result = document.getElementById("result");

  let info = page.State.info;       // the game, as the last event told
  let stFrame = page.State.frame;   // the game's latest frame, as the seat sees it
  let frame = stFrame;              // the frame shown
  let viewBox = null;               // the shown picture's viewBox: [x, y, w, h]
  let count = 0;                    // the moves listed
  let session = "";                 // the page's session, which answers name
  let n = 0;                        // the question's number
  let q = null;                     // the question asked, null for none
  let answered = 0;                 // the question answered (taken), 0 for none
  let sending = false;              // an answer is on its way
  let deadlineAt = null;            // performance.now() of the question's deadline
  let clicks = [];                  // the areas clicked so far
  let red = new Set();              // setup: the letters of the red ghosts
  let picked = "";                  // setup: the ghost picked for a swap
  let confirming = null;            // the choice whose confirmation is asked (resign)
  let finished = false;

  // viewBoxOf reads the viewBox of a picture's text: [x, y, w, h], null
  // for none.
  function viewBoxOf(svg) {
    const m = /<svg\b[^>]*?\sviewBox\s*=\s*["']([^"']*)["']/.exec(svg || "");
    if (!m) return null;
    const v = m[1].trim().split(/[\s,]+/).map(Number);
    if (v.length !== 4 || v.some(x => !isFinite(x)) || v[2] <= 0 || v[3] <= 0) return null;
    return v;
  }

  // place lays the overlay over the picture as drawn: the img keeps the
  // picture's proportions within its box (object-fit: contain), centred.
  function place() {
    if (!viewBox) return;
    const w = img.clientWidth, h = img.clientHeight;
    if (!w || !h) return;
    const a = viewBox[2] / viewBox[3];
    let cw = w, ch = h;
    if (w / h > a) cw = h * a; else ch = w / a;
    overlay.style.left = (img.offsetLeft + (w - cw) / 2) + "px";
    overlay.style.top = (img.offsetTop + (h - ch) / 2) + "px";
    overlay.style.width = cw + "px";
    overlay.style.height = ch + "px";
  }
  if (window.ResizeObserver) new ResizeObserver(place).observe(img);
  window.addEventListener("resize", place);
  img.addEventListener("load", place);

  const startsWith = (list, pre) => pre.length <= list.length && pre.every((s, i) => list[i] === s);
  const same = (a, b) => a.length === b.length && startsWith(a, b);
  const open = () => q !== null && answered !== n && !finished;
  const moveChoices = () => (q && !q.setup ? q.choices || [] : []).filter(c => (c.squares || []).length > 0);

  // areaAt is the name of the question's area at (x, y) in viewBox units.
  function areaAt(x, y) {
    for (const a of (q && q.areas) || []) {
      if (x >= a.x && x < a.x + a.w && y >= a.y && y < a.y + a.h) return a.name;
    }
    return "";
  }

  overlay.addEventListener("click", ev => {
    if (!viewBox || !open()) return;
    const r = overlay.getBoundingClientRect();
    if (!r.width || !r.height) return;
    const x = viewBox[0] + (ev.clientX - r.left) / r.width * viewBox[2];
    const y = viewBox[1] + (ev.clientY - r.top) / r.height * viewBox[3];
    clickArea(areaAt(x, y));
  });

  document.addEventListener("keydown", ev => {
    if (ev.key !== "Escape") return;
    clicks = []; picked = ""; confirming = null;
    render();
  });

  // clickArea takes a click on area name ("" for none).
  function clickArea(name) {
    confirming = null;
    if (q.setup) { clickGhost(name); return; }
    const cs = moveChoices();
    const next = clicks.concat([name]);
    if (name && cs.some(c => startsWith(c.squares, next))) clicks = next;
    else if (name && cs.some(c => c.squares[0] === name)) clicks = [name];
    else clicks = [];
    const exact = cs.filter(c => same(c.squares, clicks));
    const more = cs.some(c => c.squares.length > clicks.length && startsWith(c.squares, clicks));
    if (clicks.length > 0 && exact.length === 1 && !exact[0].label && !more) {
      render();
      answer(exact[0].answer);
      return;
    }
    render();
  }

  // clickGhost takes a click on area name during a Geister setup: a
  // ghost is picked, and a second ghost of the other colour swaps with it.
  function clickGhost(name) {
    const g = q.setup.ghosts.find(g => g.square === name);
    if (!g) picked = "";
    else if (picked === g.letter) picked = "";
    else if (picked && red.has(picked) !== red.has(g.letter)) {
      for (const l of [picked, g.letter]) { if (red.has(l)) red.delete(l); else red.add(l); }
      picked = "";
    } else picked = g.letter;
    render();
  }

  // redLetters are the red ghosts' letters, in the ghosts' order.
  const redLetters = () => q.setup.ghosts.filter(g => red.has(g.letter)).map(g => g.letter).join("");

  // areaBox makes an overlay element over area a.
  function areaBox(a, cls) {
    const d = document.createElement("div");
    d.className = "area " + cls;
    d.dataset.area = a.name;
    d.style.left = (100 * (a.x - viewBox[0]) / viewBox[2]) + "%";
    d.style.top = (100 * (a.y - viewBox[1]) / viewBox[3]) + "%";
    d.style.width = (100 * a.w / viewBox[2]) + "%";
    d.style.height = (100 * a.h / viewBox[3]) + "%";
    overlay.appendChild(d);
    return d;
  }

  function button(text, onClick, c) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = text;
    if (c) { b.dataset.kind = c.answer.kind; b.dataset.move = c.answer.move || ""; }
    b.disabled = !open() || sending;
    b.addEventListener("click", onClick);
    choices.appendChild(b);
    return b;
  }

  // pick answers choice c, after a confirmation for a resignation.
  function pick(c) {
    if (c.answer.kind === "resign" && confirming !== c) { confirming = c; render(); return; }
    confirming = null;
    answer(c.answer);
  }

  // render draws the overlay and the buttons for the question.
  function render() {
    overlay.textContent = "";
    choices.textContent = "";
    overlay.hidden = !q || !viewBox || !open();
    if (!overlay.hidden) place();
    if (!q) return;
    const areas = new Map();
    for (const a of q.areas || []) if (!areas.has(a.name)) areas.set(a.name, a);
    if (q.setup && viewBox) {
      for (const g of q.setup.ghosts) {
        const a = areas.get(g.square);
        if (!a) continue;
        const d = areaBox(a, "ghost " + (red.has(g.letter) ? "red" : "blue") + (picked === g.letter ? " picked" : ""));
        d.dataset.letter = g.letter;
        d.textContent = g.letter;
      }
    } else if (viewBox) {
      const hot = new Set();
      for (const c of moveChoices()) {
        if (c.squares.length > clicks.length && startsWith(c.squares, clicks)) hot.add(c.squares[clicks.length]);
      }
      for (const name of hot) if (areas.has(name)) areaBox(areas.get(name), "hot");
      clicks.forEach((name, i) => {
        if (areas.has(name)) areaBox(areas.get(name), "clicked").dataset.step = String(i + 1);
      });
    }
    // The buttons: the setup's, the choices the clicks reached that want
    // a button, and the choices with no squares.
    if (q.setup) {
      const b = button("Set Finish", () => answer({ kind: "move", move: redLetters() }));
      b.id = "set-finish";
      b.classList.add("main");
    }
    if (clicks.length > 0) {
      for (const c of moveChoices()) {
        if (same(c.squares, clicks)) button(c.label || c.answer.move || c.answer.kind, () => pick(c), c).classList.add("main");
      }
    }
    for (const c of q.choices || []) {
      if ((c.squares || []).length > 0) continue;
      if (confirming === c) {
        const span = document.createElement("span");
        span.className = "confirm";
        span.textContent = "Resign the game?";
        choices.appendChild(span);
        button("Yes, resign", () => pick(c), c).classList.add("danger");
        button("No", () => { confirming = null; render(); }).classList.add("cancel");
        continue;
      }
      button(c.label || c.answer.move || c.answer.kind, () => pick(c), c);
    }
  }

  // answer posts answer a to the question asked.
  function answer(a) {
    if (!open() || sending) return;
    sending = true;
    const asked = n;
    refused.hidden = true;
    render();
    const body = new URLSearchParams({ session: session, n: String(asked), kind: a.kind, move: a.move || "" });
    fetch(base + "/act" + token, { method: "POST", body: body }).then(r => {
      if (r.ok) { answered = asked; return; }
      return r.text().then(t => refuse(t.trim() || r.statusText));
    }, e => refuse("the answer did not reach the viewer (" + e + ")")).finally(() => {
      sending = false;
      render();
    });
  }

  // refuse shows why the answer was refused, and starts the move again.
  function refuse(text) {
    refused.hidden = false;
    refused.textContent = "Refused: " + text;
    clicks = [];
  }

  // clockText writes a time left as the viewer does: m:ss.t, or h:mm:ss
  // from an hour up.
  function clockText(ms) {
    ms = Math.max(ms, 0);
    if (ms >= 3600000) {
      const s = Math.floor(ms / 1000);
      return Math.floor(s / 3600) + ":" + String(Math.floor(s / 60) % 60).padStart(2, "0") + ":" + String(s % 60).padStart(2, "0");
    }
    const t = Math.floor(ms / 100);
    return Math.floor(t / 600) + ":" + String(Math.floor(t / 10) % 60).padStart(2, "0") + "." + (t % 10);
  }

  // tick shows the clocks: the frame's, and the seat's own counting down
  // to the question's deadline while it is asked.
  function tick() {
    for (const i of [0, 1]) {
      let c = (frame.clocks || [])[i] || "";
      if (i === mySeat && deadlineAt !== null && open()) c = clockText(deadlineAt - performance.now());
      const el = document.getElementById("clock" + i);
      if (el.textContent !== c) el.textContent = c;
      el.hidden = c === "";
    }
  }
  setInterval(tick, 100);

  // showTurn says whose turn it is.
  function showTurn() {
    let t = "";
    const who = frame.toMove;
    if (finished) t = "Game over";
    else if (q && (q.setup || (q.choices || []).some(c => c.answer.kind === "move"))) t = "Your turn (" + seatName + ")";
    else if (q) t = "Your answer (" + seatName + ")";
    else if (who === mySeat) t = "Your turn (" + seatName + ")";
    else if (who === 0 || who === 1) t = "Waiting for " + ((info.players || [])[who] || (info.seats || [])[who] || "the opponent");
    turn.textContent = t;
    turn.classList.toggle("mine", t.startsWith("Your"));
  }

  // show draws the frame of the question (when it has a picture) or the
  // game's latest.
  function show() {
    const f = q && q.frame && q.frame.board ? q.frame : stFrame;
    frame = Object.assign({}, f, { views: null });
    board.show(frame);
    viewBox = viewBoxOf(frame.board);
    tick();
    showTurn();
  }

  // apply takes a "seat" event.
  function apply(ev) {
    session = ev.session;
    const st = ev.state;
    info = st.info || info;
    count = addMoves(moves, st, count);
    moves.querySelectorAll(".current").forEach(e => e.classList.remove("current"));
    if (moves.lastElementChild) moves.lastElementChild.classList.add("current");
    stFrame = st.frame;
    finished = !!st.finished;
    // A question sent already comes again as its number and "same".
    const question = ev.same && ev.n === n ? q : ev.question;
    if (ev.n !== n || !question) {
      clicks = []; picked = ""; confirming = null;
      red = new Set(question && question.setup ? (question.setup.red || "").split("") : []);
      // A refusal stays shown until the next question.
      if (question && ev.n !== n) refused.hidden = true;
    }
    n = ev.n;
    q = question || null;
    deadlineAt = q && q.deadline ? performance.now() + ev.left : null;
    prompt.hidden = !q || !q.prompt;
    prompt.textContent = q ? q.prompt : "";
    show();
    render();
    if (finished) {
      showResult(result, st);
      conn.textContent = "game over";
    }
    if (moves.lastElementChild) moves.scrollTop = moves.scrollHeight;
  }

  // stop says why the page follows the seat no more.
  function stop(text) {
    notice.hidden = false;
    notice.textContent = text;
    conn.textContent = "not following";
    q = null;
    render();
    showTurn();
  }

  const sleep = ms => new Promise(ok => setTimeout(ok, ms));

  // follow reads the seat's event stream, and reconnects when it breaks
  // (not when it is refused, or over).
  async function follow() {
    let delay = 500;
    for (;;) {
      let resp = null;
      try {
        resp = await fetch(base + "/events" + token, { cache: "no-store", headers: { Accept: "text/event-stream" } });
      } catch (e) {
        resp = null;
      }
      if (resp && resp.status === 409) {
        stop("This seat is open in another browser: it can be played from one browser at a time. Close it there, then reload this page.");
        return;
      }
      if (resp && resp.status === 403) {
        stop("This link opens no seat of the game now: the game is over, or the seat was given another link.");
        return;
      }
      if (resp && resp.ok && resp.body) {
        delay = 500;
        if (await read(resp.body)) return;
      }
      conn.textContent = "reconnecting…";
      await sleep(delay);
      delay = Math.min(2 * delay, 8000);
    }
  }

  // read reads events from an event stream until it ends; it reports
  // whether the page is done with the seat.
  async function read(body) {
    const reader = body.pipeThrough(new TextDecoderStream()).getReader();
    let buf = "";
    try {
      for (;;) {
        const r = await reader.read();
        if (r.done) return false;
        buf += r.value.replace(/\r\n?/g, "\n");
        let k;
        while ((k = buf.indexOf("\n\n")) >= 0) {
          const block = buf.slice(0, k);
          buf = buf.slice(k + 2);
          let name = "", data = "";
          for (const line of block.split("\n")) {
            if (line.startsWith("event:")) name = line.slice(6).trim();
            else if (line.startsWith("data:")) data += line.slice(line.startsWith("data: ") ? 6 : 5);
          }
          if (name !== "seat" || !data) continue;
          const ev = JSON.parse(data);
          if (ev.taken) {
            stop("This seat was opened in another tab or window of this browser: this page no longer follows it.");
            reader.cancel();
            return true;
          }
          conn.textContent = "your seat";
          apply(ev);
          if (ev.closed) {
            if (!finished) stop("The seat is closed: the game is over for it.");
            reader.cancel();
            return true;
          }
        }
      }
    } catch (e) {
      return false;
    }
  }

  show();
  follow();
})();
