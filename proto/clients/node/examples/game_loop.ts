// An example game loop: the game server's side of npcd in ~100 lines. It opens a game
// stream, creates a villager NPC (owned by this stream) and a player beside it, performs
// the actions npcd sends for the villager (a MoveTo reports progress, then completes) and
// stops once the villager does something other than walk: it saw the player and greets.
//
//   npm run example -- 127.0.0.1:50051 [token]      (with the demo daemon running)
import { Action, Event, NpcdClient } from "../src";

export interface GameLoopOptions {
  agentId?: string;
  playerId?: string;
  timeoutMs?: number;
  log?: (line: string) => void;
}

export interface GameLoopResult {
  performed: string[]; // action names, in order
  progressReports: number;
  errors: string[]; // EVENT_KIND_ERROR texts sent to this client
  behavior: string; // the villager's behavior at the end (GetAgent)
}

export async function runGameLoop(client: NpcdClient, options: GameLoopOptions = {}): Promise<GameLoopResult> {
  const agentId = options.agentId ?? "900001";
  const playerId = options.playerId ?? "900002";
  const log = options.log ?? (() => {});
  const result: GameLoopResult = { performed: [], progressReports: 0, errors: [], behavior: "" };
  const stream = client.openStream();

  const done = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no reaction within ${options.timeoutMs ?? 20_000} ms: ${result.performed}`)), options.timeoutMs ?? 20_000);
    stream.on("welcome", (welcome) => {
      log(`connected as client ${welcome.client_id}, tick ${welcome.tick}`);
      // The world as the game knows it; sent again after every reconnect.
      stream.subscribe({});
      stream.upsert(
        { id: agentId, kind: "ENTITY_KIND_NPC", archetype: "villager", position: { x: -30, y: -30, z: 0 } },
        { id: playerId, kind: "ENTITY_KIND_PLAYER", position: { x: -27, y: -30, z: 0 } },
      );
    });
    stream.on("event", (event: Event) => {
      if (event.kind === "EVENT_KIND_ERROR") result.errors.push(event.text);
    });
    stream.on("action", (action: Action) => {
      if (action.agent !== agentId) return; // the demo's own NPCs are played by the daemon
      log(`perform ${action.name} (intention ${action.intention})`);
      result.performed.push(action.name);
      if (action.name !== "MoveTo") {
        stream.complete(action);
        clearTimeout(timer);
        resolve();
        return;
      }
      // A real game moves the NPC here; this one reports halfway, then arrival.
      setTimeout(() => {
        if (stream.progress(action, 0.5)) result.progressReports += 1;
        setTimeout(() => stream.complete(action), 100);
      }, 100);
    });
    stream.on("reconnecting", ({ attempt, delayMs }) => log(`reconnecting (attempt ${attempt}) in ${Math.round(delayMs)} ms`));
  });

  try {
    await done;
  } finally {
    await stream.close();
  }
  // The JSON debug view: the behavior the villager's selection tree chose.
  const view = JSON.parse((await client.getAgent(agentId)).json);
  result.behavior = view.behavior?.name ?? "";
  log(`villager ${agentId} performed ${result.performed.join(", ")}; behavior ${result.behavior}`);
  return result;
}

if (require.main === module) {
  const target = process.argv[2] ?? process.env.NPCD_TARGET ?? "127.0.0.1:50051";
  const token = process.argv[3] ?? process.env.NPCD_AUTH_TOKEN;
  const client = new NpcdClient({ target, token });
  runGameLoop(client, { log: (line) => console.log(line) })
    .then(() => client.close())
    .catch((error) => {
      console.error(`game_loop: ${error.message}`);
      process.exit(1);
    });
}
