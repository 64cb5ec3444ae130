// The new-game form follows the choices: the chosen scenario's description, player counts, seats,
// decks and options only. Hidden parts are also disabled, so they are not sent. Without this
// script every part shows and the server reads only what the scenario needs.
(function () {
  "use strict";
  const form = document.getElementById("new-game");
  if (!form) return;
  const scenario = form.querySelector("#scenario");
  const players = form.querySelector("#players");

  function show(el, on) {
    el.hidden = !on;
    if (el.matches("fieldset")) el.disabled = !on;
  }

  function update() {
    const option = scenario.selectedOptions[0];
    if (!option) return;
    const game = option.dataset.game;
    const low = Number(option.dataset.low), high = Number(option.dataset.high);
    form.querySelectorAll(".scenario-about").forEach((p) => show(p, p.dataset.scenario === option.value));
    let count = Number(players.value);
    for (const o of players.options) {
      const n = Number(o.value);
      o.disabled = o.hidden = n < low || n > high;
    }
    if (count < low || count > high) {
      count = Math.min(Math.max(2, low), high);
      players.value = String(count);
    }
    form.querySelectorAll(".seat-choice").forEach((seat) => {
      const on = Number(seat.dataset.seat) < count;
      seat.hidden = !on;
      seat.querySelectorAll("select, input").forEach((el) => { el.disabled = !on; });
      const kind = seat.querySelector(".seat-kind");
      const invite = seat.querySelector(".seat-invite");
      invite.hidden = kind.value !== "invite";
      invite.required = on && kind.value === "invite";
      // A bot always plays a starter deck: only the other seats choose one.
      const deck = seat.querySelector(".seat-deck");
      if (deck) show(deck, deck.dataset.game === game && high > 1 && !kind.value.startsWith("bot:"));
    });
    form.querySelectorAll(".deck-help").forEach((el) => show(el, el.dataset.game === game && high > 1));
    form.querySelectorAll(".options-set").forEach((set) => show(set, set.dataset.game === game));
    // Each scenario plays its own options (Engine.option_specs of its config), and may offer
    // only some values of one (a shorter EMA game: fewer Rounds than its length).
    const offers = (el) => el.dataset.scenarios.split(" ").includes(option.value);
    form.querySelectorAll(".option-field").forEach((field) => {
      const on = offers(field);
      field.hidden = !on;
      field.querySelectorAll("select, input").forEach((el) => { el.disabled = !on; });
      field.querySelectorAll("option[data-scenarios]").forEach((o) => { o.disabled = o.hidden = !offers(o); });
      const select = field.querySelector("select");
      if (select && select.selectedOptions[0] && select.selectedOptions[0].disabled) select.selectedIndex = 0;
    });
    const bank = form.querySelector("input[name=clock][value=bank]").checked;
    const clock = form.querySelector(".clock-bank");
    clock.hidden = !bank;
    clock.querySelectorAll("input, select").forEach((el) => { el.disabled = !bank; });
  }

  form.addEventListener("change", (event) => {
    update();
    if (event.target.classList.contains("seat-kind") && event.target.value === "invite") {
      event.target.closest(".seat-choice").querySelector(".seat-invite").focus();
    }
  });
  update();
})();
