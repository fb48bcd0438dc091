// The table's sounds, synthesized with WebAudio (no files to fetch): a click for a play
// (heavier for a double), a knock for a pass, a shuffle for a draw, a bell for the player's
// turn, a sting for a round's end, a tick when his clock runs low (UX.md §6). Off until the player turns them on; the choice is kept on this device.
const KEY = "bazar.sound";
const GAP_MS = 100; // sounds closer than this are one (lila throttles the same way)

let audio = null;
let last = 0;

export function soundOn() { return localStorage.getItem(KEY) === "on"; }

// The browser lets a page make a sound only after a gesture: the toggle's click is one.
export function setSound(on) {
  localStorage.setItem(KEY, on ? "on" : "off");
  if (on && !audio && window.AudioContext) audio = new AudioContext();
}

// One note: a wave of `freq` Hz that starts `at` s from now and fades out over `length` s.
function note(freq, at, length, { type = "sine", volume = 0.2, slide = 0 } = {}) {
  const start = audio.currentTime + at;
  const osc = audio.createOscillator();
  const gain = audio.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, start);
  if (slide) osc.frequency.exponentialRampToValueAtTime(freq * slide, start + length);
  gain.gain.setValueAtTime(volume, start);
  gain.gain.exponentialRampToValueAtTime(0.001, start + length);
  osc.connect(gain).connect(audio.destination);
  osc.start(start);
  osc.stop(start + length);
}

// A short hiss of noise, like tiles slid over the table.
function hiss(length, volume) {
  const frames = Math.floor(audio.sampleRate * length);
  const buffer = audio.createBuffer(1, frames, audio.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < frames; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / frames);
  const source = audio.createBufferSource();
  const gain = audio.createGain();
  gain.gain.value = volume;
  source.buffer = buffer;
  source.connect(gain).connect(audio.destination);
  source.start();
}

const SOUNDS = {
  click: () => note(1800, 0, 0.05, { type: "square", volume: 0.08, slide: 0.4 }),
  double: () => { note(1200, 0, 0.07, { type: "square", volume: 0.1, slide: 0.4 });
    note(700, 0.03, 0.08, { type: "square", volume: 0.08, slide: 0.5 }); },
  bell: () => { note(880, 0, 0.6, { volume: 0.15 }); note(1320, 0, 0.4, { volume: 0.06 }); },
  sting: () => { note(523, 0, 0.25); note(659, 0.12, 0.25); note(784, 0.24, 0.5); },
  low: () => note(440, 0, 0.15, { type: "triangle", volume: 0.15 }),
  knock: () => { note(160, 0, 0.08, { type: "triangle", volume: 0.25, slide: 0.6 });
    note(150, 0.11, 0.08, { type: "triangle", volume: 0.2, slide: 0.6 }); },
  shuffle: () => hiss(0.18, 0.12),
};

// Plays the sound `kind` if sounds are on.
export function sound(kind) {
  if (!soundOn()) return;
  if (!audio && window.AudioContext) audio = new AudioContext();
  // a page opened with the sounds on may start muted by the browser until the first gesture
  if (audio && audio.state === "suspended") audio.resume();
  const now = performance.now();
  if (!audio || now - last < GAP_MS) return;
  last = now;
  SOUNDS[kind]();
}
