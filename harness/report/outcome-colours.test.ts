import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OUTCOME_LOOKS, SHOWN_ORDER } from './outcome-colours.js';
import { isVerdict } from './outcome.js';

/** Machado, Oliveira and Fernandes (2009), full severity, on linear RGB. */
const DEFICIENCIES: Record<string, number[][]> = {
  'normal vision': [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ],
  protanopia: [
    [0.152286, 1.052583, -0.204868],
    [0.114503, 0.786281, 0.099216],
    [-0.003882, -0.048116, 1.051998],
  ],
  deuteranopia: [
    [0.367322, 0.860646, -0.227968],
    [0.280085, 0.672501, 0.047413],
    [-0.01182, 0.04294, 0.968881],
  ],
  tritanopia: [
    [1.255528, -0.076749, -0.178779],
    [-0.078411, 0.930809, 0.147602],
    [0.004733, 0.691367, 0.3039],
  ],
};

function seenAs(colour: string, matrix: number[][]): number[] {
  const linear = [1, 3, 5].map((i) => {
    const c = Number.parseInt(colour.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return matrix.map((row) => {
    const c = Math.min(
      1,
      Math.max(
        0,
        row.reduce((sum, m, k) => sum + m * linear[k]!, 0),
      ),
    );
    return 255 * (c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055);
  });
}

test('every two outcomes stay apart under the common colour-vision deficiencies, verdicts far apart', () => {
  for (const [deficiency, matrix] of Object.entries(DEFICIENCIES)) {
    for (const [i, a] of SHOWN_ORDER.entries()) {
      for (const b of SHOWN_ORDER.slice(i + 1)) {
        const distance = Math.hypot(
          ...seenAs(OUTCOME_LOOKS[a].colour, matrix).map((c, k) => c - seenAs(OUTCOME_LOOKS[b].colour, matrix)[k]!),
        );
        const least = isVerdict(a) && isVerdict(b) ? 100 : 50;
        assert.ok(distance >= least, `${a} and ${b} under ${deficiency}: ${distance.toFixed(0)} apart`);
      }
    }
  }
});

test('each outcome has a shape of its own, so none is told by colour alone', () => {
  assert.equal(new Set(SHOWN_ORDER.map((o) => OUTCOME_LOOKS[o].shape)).size, SHOWN_ORDER.length);
});
