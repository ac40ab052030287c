import assert from "node:assert/strict";
import { EventEmitter } from "node:events";
import { test } from "node:test";

import { Backoff, GameStream } from "../src";

// A Connect call that delivers what the test pushes, as the daemon would.
class FakeCall extends EventEmitter {
  written: unknown[] = [];
  write(update: unknown): boolean {
    this.written.push(update);
    return true;
  }
  end(): void {}
  cancel(): void {}
}

function message(fields: Record<string, unknown>) {
  return { tick: "1", sim_time: 0.1, welcome: null, actions: [], events: [], stored_seq: "0", ...fields };
}

test("storedSeq follows the highest stored_seq the daemon sent, and says so once each", () => {
  const call = new FakeCall();
  const stream = new GameStream(() => call as never, new Backoff({ jitter: 0 }));
  const told: string[] = [];
  stream.on("stored", (seq: string) => told.push(seq));
  stream.start();
  assert.equal(stream.storedSeq, "0");
  call.emit("data", message({ welcome: { client_id: 3 } }));
  call.emit("data", message({ stored_seq: "2" }));
  call.emit("data", message({ stored_seq: "0" })); // a message that does not move it
  call.emit("data", message({ stored_seq: "5" }));
  assert.equal(stream.storedSeq, "5");
  assert.deepEqual(told, ["2", "5"]);
});
