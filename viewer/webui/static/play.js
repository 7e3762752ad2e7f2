// botarena viewer: a seat's page, where a person plays. The "seat" events of
// /play/<id>/events bring the seat's view of the game and the question it
// is asked; an answer is posted to /play/<id>/act.
"use strict";
(function () {
  const page = JSON.parse(document.getElementById("data").textContent);
  const base = "/play/" + encodeURIComponent(page.ID);
  const token = "?seat=" + encodeURIComponent(page.Token);
  const board = new Board();
  const moves = document.getElementById("moves");
  const conn = document.getElementById("conn");
  const prompt = document.getElementById("prompt");
  const choices = document.getElementById("choices");
  const refused = document.getElementById("refused");
  const result = document.getElementById("result");
  let count = 0, session = "", asked = 0;

  function answer(kind, move) {
    const body = new URLSearchParams({ session: session, n: String(asked), kind: kind, move: move || "" });
    refused.hidden = true;
    fetch(base + "/act" + token, { method: "POST", body: body }).then(r => {
      if (!r.ok) return r.text().then(t => { refused.hidden = false; refused.textContent = t; });
    });
  }

  function ask(n, q) {
    asked = n;
    choices.textContent = "";
    prompt.hidden = !q;
    if (!q) return;
    prompt.textContent = q.prompt;
    board.show(q.frame);
    for (const c of q.choices || []) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = c.label || c.answer.move || c.answer.kind;
      b.dataset.kind = c.answer.kind;
      b.dataset.move = c.answer.move || "";
      b.addEventListener("click", () => answer(c.answer.kind, c.answer.move));
      choices.appendChild(b);
    }
  }

  function apply(ev) {
    session = ev.session;
    const st = ev.state;
    if (st.from < count) {
      while (moves.children.length > st.from) moves.lastChild.remove();
      count = st.from;
    }
    (st.moves || []).forEach((m, i) => moves.appendChild(moveItem(st.from + i + 1, m, "")));
    count = st.from + (st.moves || []).length;
    if (!ev.question) board.show(st.frame);
    ask(ev.n, ev.question);
    if (st.finished) {
      result.hidden = false;
      result.textContent = "Result: " + (st.result || "none");
      conn.textContent = "game over";
    }
  }

  board.show(page.State.frame);
  const es = new EventSource(base + "/events" + token);
  es.addEventListener("seat", ev => {
    const e = JSON.parse(ev.data);
    conn.textContent = "your seat";
    apply(e);
    if (e.closed) es.close();
  });
  es.onerror = () => {
    if (es.readyState !== EventSource.CLOSED) conn.textContent = "reconnecting…";
  };
})();
