// The player's hand at the bottom of the table: each tile a real button (a screen reader names
// it, the keyboard reaches it), large enough to hit on a phone, in at most two rows while the
// tiles can still shrink. The buttons are kept from one drawing to the next, keyed by tile, so
// the one with the focus keeps it while the table moves on (UX.md §4, §9).
import { digitsWanted, parseTile, tileSvg } from "./tiles.js";
import { h } from "./dom.js";

const GAP = 4; // between two buttons
const PAD = 8; // a button's padding, both sides together
const SMALLEST = 20; // the side of a half under which a tile no longer reads at a glance

// The side of a half tile for `n` tiles in `width` px: the largest from `largest` down that
// keeps them to two rows (or the smallest, if even it does not).
export function handSize(n, width, largest) {
  for (let u = largest; u > SMALLEST; u--) {
    const perRow = Math.max(1, Math.floor((width + GAP) / (u + PAD + GAP)));
    if (Math.ceil(n / perRow) <= 2) return u;
  }
  return SMALLEST;
}

// Draws `hand` (tile texts, "6-4") into `box`: `playable` the tiles that may be played now,
// `selected` the one raised, `labelOf(text)` the name a screen reader says, `onPick(text)` when a
// tile is clicked (or Enter pressed on it). Returns the buttons in hand order.
export function drawHand(box, hand, { playable, selected, labelOf, onPick, largest, still = false }) {
  const before = [...box.querySelectorAll("button.tile")];
  // the tile with the focus may leave the hand (played): its neighbour takes the focus
  const focused = before.indexOf(document.activeElement);
  const kept = new Map(before.map((b) => [b.dataset.tile, b]));
  const u = handSize(hand.length, box.clientWidth || 320, largest);
  // numerals or pips, as the board draws them: a button drawn the other way is drawn again
  const digits = digitsWanted() ? "1" : "0";
  const arrived = []; // tiles new to the hand (dealt, drawn): they drop in one after another
  const buttons = hand.map((text) => {
    let button = kept.get(text);
    if (!button || Number(button.dataset.u) !== u || button.dataset.digits !== digits) {
      const [a, b] = parseTile(text);
      button = h("button", { type: "button", class: "tile", "data-tile": text, "data-u": u,
        "data-digits": digits, onclick: () => onPick(text) }, tileSvg(a, b, { size: u, digits: digits === "1" }));
      if (kept.has(text)) kept.get(text).replaceWith(button);
      else arrived.push(button);
    }
    kept.delete(text);
    button.classList.toggle("playable", playable.has(text));
    // still in the tab order (it is read out), but said to be out of play
    button.setAttribute("aria-disabled", playable.has(text) ? "false" : "true");
    button.classList.toggle("selected", selected === text);
    button.setAttribute("aria-label", labelOf(text));
    button.setAttribute("aria-pressed", selected === text ? "true" : "false");
    return button;
  });
  for (const gone of kept.values()) gone.remove();
  // in hand order; a button already in place is not moved, so the focus stays on it
  buttons.forEach((button, i) => {
    if (box.children[i] !== button) box.insertBefore(button, box.children[i] || null);
  });
  if (focused >= 0 && buttons.length && !box.contains(document.activeElement)) {
    buttons[Math.min(focused, buttons.length - 1)].focus({ preventScroll: true });
  }
  rove(box, buttons, selected);
  if (!still) {
    arrived.forEach((button, i) => button.firstChild.animate(
      [{ transform: "translateY(-24px)", opacity: 0 }, { transform: "none", opacity: 1 }],
      { duration: 150, delay: i * 60, easing: "ease-out", fill: "backwards" }));
  }
  return buttons;
}

// Roving tabindex: one tile of the hand is in the tab order (the selected one, else the one
// last focused, else the first playable), the arrows move among them.
function rove(box, buttons, selected) {
  const current = buttons.find((b) => b.dataset.tile === selected)
    || buttons.find((b) => b === document.activeElement)
    || buttons.find((b) => b.tabIndex === 0)
    || buttons.find((b) => b.classList.contains("playable"))
    || buttons[0];
  for (const b of buttons) b.tabIndex = b === current ? 0 : -1;
}

// Moves the focus `step` tiles along the hand (the arrows), wrapping round.
export function stepFocus(box, step) {
  const buttons = [...box.querySelectorAll("button.tile")];
  if (!buttons.length) return;
  const at = Math.max(0, buttons.indexOf(document.activeElement));
  const next = buttons[(at + step + buttons.length) % buttons.length];
  for (const b of buttons) b.tabIndex = b === next ? 0 : -1;
  next.focus();
}
