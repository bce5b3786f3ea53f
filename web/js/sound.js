/**
 * @file SoundManager: short sounds synthesised with the Web Audio API (no sound files), mutable.
 */

/**
 * One tone of a sound.
 * @typedef {Object} Tone
 * @property {OscillatorType} wave The oscillator type (`sine`, `square`, `triangle`, `sawtooth`).
 * @property {number} from Start frequency in Hz.
 * @property {number} to End frequency in Hz.
 * @property {number} start Start in seconds after the sound begins.
 * @property {number} length Duration in seconds.
 * @property {number} volume Peak gain, 0..1.
 */

/** @type {Object<string, Tone[]>} The sounds by name. */
const _SOUNDS = {
  play: [{ wave: 'triangle', from: 660, to: 440, start: 0, length: 0.07, volume: 0.25 }],
  pass: [{ wave: 'sine', from: 300, to: 260, start: 0, length: 0.06, volume: 0.12 }],
  bomb: [
    { wave: 'sawtooth', from: 180, to: 40, start: 0, length: 0.45, volume: 0.35 },
    { wave: 'square', from: 90, to: 30, start: 0.05, length: 0.4, volume: 0.2 }
  ],
  turn: [
    { wave: 'sine', from: 660, to: 660, start: 0, length: 0.12, volume: 0.25 },
    { wave: 'sine', from: 990, to: 990, start: 0.12, length: 0.16, volume: 0.25 }
  ],
  announce: [
    { wave: 'triangle', from: 523, to: 523, start: 0, length: 0.1, volume: 0.25 },
    { wave: 'triangle', from: 659, to: 659, start: 0.1, length: 0.1, volume: 0.25 },
    { wave: 'triangle', from: 784, to: 784, start: 0.2, length: 0.2, volume: 0.25 }
  ]
};

/** @type {(AudioContext|null)} Created after the first user gesture (browsers require it). */
let _context = null;
/** @type {boolean} */
let _muted = false;

/**
 * Create the audio context on the first user gesture.
 * @returns {void}
 */
function _unlock() {
  const legacy = /** @type {Window & {webkitAudioContext?: typeof AudioContext}} */ (window);  // older Safari
  const AudioContextClass = window.AudioContext || legacy.webkitAudioContext;
  if (!_context && AudioContextClass) {
    _context = new AudioContextClass();
  }
}

/**
 * Start listening for the first user gesture.
 * @returns {void}
 */
function init() {
  document.addEventListener('pointerdown', _unlock, { once: true, capture: true });
  document.addEventListener('keydown', _unlock, { once: true, capture: true });
}

/**
 * Play one tone.
 * @param {AudioContext} context The audio context.
 * @param {Tone} tone The tone.
 * @param {number} now The context's current time.
 * @returns {void}
 */
function _playTone(context, tone, now) {
  const oscillator = context.createOscillator();
  const gain = context.createGain();
  const start = now + tone.start;
  const end = start + tone.length;
  oscillator.type = tone.wave;
  oscillator.frequency.setValueAtTime(tone.from, start);
  oscillator.frequency.exponentialRampToValueAtTime(tone.to, end);
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(tone.volume, start + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, end);
  oscillator.connect(gain);
  gain.connect(context.destination);
  oscillator.start(start);
  oscillator.stop(end + 0.02);
}

/**
 * Play a sound unless muted or no user gesture happened yet.
 * @param {string} name `play`, `pass`, `bomb`, `turn` or `announce`.
 * @returns {void}
 */
function play(name) {
  const tones = _SOUNDS[name];
  if (_muted || !_context || !tones) {
    return;
  }
  if (_context.state === 'suspended') {
    _context.resume();
  }
  const now = _context.currentTime;
  for (const tone of tones) {
    _playTone(_context, tone, now);
  }
}

/**
 * Mute or unmute.
 * @param {boolean} muted True to mute.
 * @returns {void}
 */
function setMuted(muted) {
  _muted = Boolean(muted);
}

/**
 * Whether sounds are muted.
 * @returns {boolean} True when muted.
 */
function isMuted() {
  return _muted;
}

/**
 * The sounds.
 * @namespace SoundManager
 */
export const SoundManager = Object.freeze({ init, play, setMuted, isMuted });
