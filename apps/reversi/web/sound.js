// The move sound: a short, soft click made with the Web Audio API (no audio file) when a disc is placed.
//
// Off by default; the game view's switch turns it on, kept in localStorage. The audio context is
// made the first time a click sounds, once the person has interacted with the page (browsers
// keep a context made before that silent), and woken again if the browser suspended it.
import { $ } from "./ui.js";

const KEY = "reversi-move-sound";

let on = false;
let ctx = null;   // the AudioContext, once made
let noise = null; // the click's burst of noise, made once
let played = 0;   // clicks asked for (the tests read it)

function stored() {
  try {
    return localStorage.getItem(KEY) === "on";
  } catch (_) {
    return false;
  }
}

function store(value) {
  try {
    localStorage.setItem(KEY, value ? "on" : "off");
  } catch (_) { /* not kept: on for this visit only */ }
}

/** The audio context (made, or woken, here), or null: no Web Audio, or no interaction yet. */
function audio() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return null;
  if (!ctx) {
    if (navigator.userActivation && !navigator.userActivation.hasBeenActive) return null;
    try {
      ctx = new Context();
    } catch (_) {
      return null;
    }
  }
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  return ctx;
}

/** One click at time `at`: a burst of noise through a band-pass filter (the tap), over a low
 *  tone falling in pitch (the disc landing), both gone within 80 ms, quietly. */
function click(ac, at) {
  if (!noise) {
    const length = Math.floor(ac.sampleRate * 0.03);
    noise = ac.createBuffer(1, length, ac.sampleRate);
    const data = noise.getChannelData(0);
    for (let i = 0; i < length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / length) ** 2;
  }
  const out = ac.createGain();
  out.gain.value = 0.5;
  out.connect(ac.destination);

  const tap = ac.createBufferSource();
  tap.buffer = noise;
  const band = ac.createBiquadFilter();
  band.type = "bandpass";
  band.frequency.value = 2200;
  band.Q.value = 0.9;
  const tapGain = ac.createGain();
  tapGain.gain.setValueAtTime(0.35, at);
  tapGain.gain.exponentialRampToValueAtTime(0.001, at + 0.03);
  tap.connect(band).connect(tapGain).connect(out);
  tap.start(at);
  tap.stop(at + 0.04);

  const tone = ac.createOscillator();
  tone.type = "triangle";
  tone.frequency.setValueAtTime(340, at);
  tone.frequency.exponentialRampToValueAtTime(160, at + 0.06);
  const toneGain = ac.createGain();
  toneGain.gain.setValueAtTime(0.0001, at);
  toneGain.gain.exponentialRampToValueAtTime(0.25, at + 0.004);
  toneGain.gain.exponentialRampToValueAtTime(0.0001, at + 0.08);
  tone.connect(toneGain).connect(out);
  tone.start(at);
  tone.stop(at + 0.09);
}

/** `count` discs were placed (a move, or a move and the reply that came with it): a click
 *  each, one after the other (three at most), when the sound is on. */
export function moveSound(count = 1) {
  if (!on || count < 1) return;
  const n = Math.min(count, 3);
  played += n;
  const ac = audio();
  if (!ac) return;
  try {
    for (let i = 0; i < n; i++) click(ac, ac.currentTime + 0.01 + i * 0.15);
  } catch (e) {
    console.warn("The move sound failed:", e);
  }
}

/** How many clicks were asked for since the page opened, and the audio context's state
 *  (null before the first): the tests' view. */
export const soundState = () => ({ on, played, context: ctx ? ctx.state : null });

/** The switch (`#move-sound`): read from localStorage, kept there when changed. Turning it on
 *  plays one click, so the person hears what it is. */
export function initSound() {
  const box = $("move-sound");
  on = stored();
  box.checked = on;
  box.onchange = () => {
    on = box.checked;
    store(on);
    if (on) moveSound(1);
  };
}
