// The client against a real npcd on the demo world (started by ./daemon.ts).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { runGameLoop } from "../examples/game_loop";
import { NpcdClient, NpcdError } from "../src";
import { freePort, RunningDaemon, startDaemon, TOKEN } from "./daemon";

let daemon: RunningDaemon;
let client: NpcdClient;

before(async () => {
  daemon = await startDaemon();
  client = new NpcdClient({ target: daemon.target, token: TOKEN });
  // The daemon listens before its first tick, and the world file's NPCs arrive with that tick:
  // the figures the tests read are the world's only once it has ticked.
  const deadline = Date.now() + 10_000;
  while (Number((await client.getStats()).tick) === 0) {
    if (Date.now() > deadline) throw new Error("npcd did not tick within 10 s");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
});

after(async () => {
  client.close();
  assert.equal(await daemon.stop(), 0);
});

test("the example game loop owns a villager, performs its actions and sees it greet", async () => {
  const result = await runGameLoop(client, { timeoutMs: 30_000 });
  assert.deepEqual(result.errors, []);
  assert.ok(result.performed.some((name) => name !== "MoveTo"), `performed ${result.performed}`);
  assert.equal(result.behavior, "Greet");
});

test("admin calls answer with the daemon's figures", async () => {
  const stats = await client.getStats();
  assert.ok(Number(stats.agents) >= 15, `agents ${stats.agents}`);
  assert.ok(Number(stats.tick) > 0);
  const id = await client.spawnAgent({ id: "900101", archetype: "villager", position: { x: -40, y: -40, z: 0 } });
  assert.equal(id, "900101");
  const intention = await client.programIntention(id, "Wait", [{ name: "duration", number: 1, unit: "s" }]);
  assert.ok(Number(intention) > 0, `intention ${intention}`);
  await client.despawnAgent(id);
});

test("a refused admin call rejects with its gRPC code and the daemon's message", async () => {
  await assert.rejects(client.despawnAgent("424242"), (error: unknown) => {
    assert.ok(error instanceof NpcdError);
    assert.equal(error.codeName, "NOT_FOUND");
    assert.match(error.message, /^DespawnAgent: NOT_FOUND: /);
    return true;
  });
  const stranger = new NpcdClient({ target: daemon.target, token: "wrong" });
  await assert.rejects(stranger.getStats(), (error: unknown) => {
    assert.ok(error instanceof NpcdError);
    assert.equal(error.codeName, "UNAUTHENTICATED");
    return true;
  });
  stranger.close();
});

test("a game stream reconnects with backoff when the daemon comes and goes", async () => {
  const port = await freePort();
  const target = `127.0.0.1:${port}`;
  const reconnecting = new NpcdClient({ target, token: TOKEN, backoff: { initialMs: 50, maxMs: 400, jitter: 0 } });
  const stream = reconnecting.openStream();
  let running: RunningDaemon | null = null;
  const delays: number[] = [];
  const welcomes: number[] = [];
  // After a welcome: the code that ended that stream and the next delay.
  const afterWelcome: { code?: number; delayMs?: number } = {};
  stream.on("reconnecting", ({ delayMs }) => {
    delays.push(delayMs);
    if (welcomes.length > 0 && afterWelcome.delayMs === undefined) afterWelcome.delayMs = delayMs;
  });
  stream.on("disconnected", ({ code }) => {
    if (welcomes.length > 0 && afterWelcome.code === undefined) afterWelcome.code = code;
  });
  const welcomed = () => new Promise<void>((resolve) => stream.once("welcome", (w) => (welcomes.push(w.client_id), resolve())));
  try {
    // Nothing listens yet: attempts back off 50, 100, 200, 400, 400 ms...
    while (delays.length < 4) await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(delays.slice(0, 4), [50, 100, 200, 400]);
    assert.equal(stream.connected, false);

    const firstWelcome = welcomed();
    running = await startDaemon(port);
    await firstWelcome;
    assert.equal(stream.connected, true);
    const stopped = running;
    running = null;
    assert.equal(await stopped.stop(), 0); // streams end with UNAVAILABLE
    while (stream.connected) await new Promise((r) => setTimeout(r, 20));

    const again = welcomed();
    running = await startDaemon(port);
    await again;
    assert.equal(welcomes.length, 2);
    assert.equal(afterWelcome.code, 14); // UNAVAILABLE: the daemon drained its streams
    assert.equal(afterWelcome.delayMs, 50); // the welcome had reset the backoff
  } finally {
    await stream.close();
    reconnecting.close();
    if (running) assert.equal(await running.stop(), 0);
  }
});
