import assert from "node:assert/strict";
import { test } from "node:test";

import { Backoff } from "../src";

test("delays grow by the multiplier up to the cap, without jitter", () => {
  const backoff = new Backoff({ initialMs: 100, maxMs: 1_000, multiplier: 2, jitter: 0 });
  const delays = Array.from({ length: 6 }, () => backoff.next());
  assert.deepEqual(delays, [100, 200, 400, 800, 1_000, 1_000]);
  assert.equal(backoff.attempts, 6);
});

test("jitter draws each delay between (1 - jitter) and 1 times its ceiling", () => {
  const low = new Backoff({ initialMs: 100, jitter: 0.5, random: () => 0 });
  const high = new Backoff({ initialMs: 100, jitter: 0.5, random: () => 0.999 });
  assert.equal(low.next(), 50);
  assert.ok(Math.abs(high.next() - 99.95) < 1e-9);
  assert.equal(low.next(), 100); // second attempt: ceiling 200
});

test("reset starts again from the initial delay", () => {
  const backoff = new Backoff({ initialMs: 100, jitter: 0 });
  backoff.next();
  backoff.next();
  backoff.reset();
  assert.equal(backoff.attempts, 0);
  assert.equal(backoff.next(), 100);
});

test("bad options are refused, naming the option", () => {
  assert.throws(() => new Backoff({ initialMs: 0 }), /backoff initialMs: must be > 0, got 0/);
  assert.throws(() => new Backoff({ initialMs: 500, maxMs: 100 }), /backoff maxMs: must be >= initialMs \(500\), got 100/);
  assert.throws(() => new Backoff({ multiplier: 0.5 }), /backoff multiplier: must be >= 1, got 0.5/);
  assert.throws(() => new Backoff({ jitter: 2 }), /backoff jitter: must be within \[0, 1\], got 2/);
});
