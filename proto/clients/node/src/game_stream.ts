// GameStream: the game server's Connect stream. It sends WorldUpdates (numbering them),
// emits what the daemon sends, and when the stream ends without close() it reconnects
// after a backoff delay.
//
// Events:
//   "welcome"  (Welcome)         a stream (re)opened: the client id that owns the agents
//                                this stream creates. Send the world state from here: after
//                                a reconnect the daemon knows the agents but not what the
//                                game changed while the stream was down.
//   "action"   (Action)          perform it, then report complete(), fail() or progress()
//   "event"    (Event)           intention events, behaviors, errors naming the update seq
//   "stored"   (string)          cluster: this client's updates up to this seq are in Redis
//                                (ServerMessage.stored_seq); keep later ones to send again
//                                to a place's next holder if its node dies
//   "message"  (ServerMessage)   every message, whole
//   "disconnected" ({code, details})   the stream ended (UNAVAILABLE when npcd stops)
//   "reconnecting" ({attempt, delayMs}) the next attempt is scheduled
//   "closed"                     close() finished
import { EventEmitter } from "events";
import * as grpc from "@grpc/grpc-js";

import { Backoff } from "./backoff";
import type { Action__Output } from "./generated/npc/v1/Action";
import type { Entity } from "./generated/npc/v1/Entity";
import type { ServerMessage__Output } from "./generated/npc/v1/ServerMessage";
import type { Subscription } from "./generated/npc/v1/Subscription";
import type { WorldUpdate } from "./generated/npc/v1/WorldUpdate";
import type { Welcome__Output } from "./generated/npc/v1/Welcome";

type ConnectCall = grpc.ClientDuplexStream<WorldUpdate, ServerMessage__Output>;

export interface Disconnect {
  code: grpc.status;
  details: string;
}

export class GameStream extends EventEmitter {
  private call: ConnectCall | null = null;
  private welcome: Welcome__Output | null = null;
  private subscription: Subscription | null = null;
  private timer: NodeJS.Timeout | null = null;
  private closing = false;
  private seq = 0;
  private stored = 0n;

  constructor(
    private readonly open: () => ConnectCall,
    private readonly backoff: Backoff,
  ) {
    super();
  }

  /** True between a welcome and the end of that stream. */
  get connected(): boolean {
    return this.welcome !== null;
  }
  /** Cluster: the highest seq of this client's updates that the daemon has in Redis
   * ("0" alone, or before the first is stored). */
  get storedSeq(): string {
    return this.stored.toString();
  }
  /** The owner id of this stream's agents; changes on every reconnect. */
  get clientId(): number | null {
    return this.welcome ? this.welcome.client_id : null;
  }

  start(): void {
    if (this.closing || this.call) return;
    const call = this.open();
    this.call = call;
    call.on("data", (message: ServerMessage__Output) => this.receive(message));
    // Failures arrive as "status" too; handling "error" keeps EventEmitter from throwing.
    call.on("error", () => {});
    call.on("status", (status: grpc.StatusObject) => this.ended(call, status));
    if (this.subscription) call.write({ seq: String(++this.seq), subscribe: this.subscription });
  }

  /** Sends one update, numbered with the next seq (echoed by errors about it). Returns the
   * seq, or null when no stream is open (the update is dropped: resend on "welcome"). */
  send(update: WorldUpdate): string | null {
    if (!this.call || !this.connected) return null;
    const seq = String(++this.seq);
    this.call.write({ ...update, seq });
    return seq;
  }

  /** Creates or updates entities: NPCs created here are owned by this stream's client. */
  upsert(...entities: Entity[]): string | null {
    return this.send({ upserts: entities });
  }
  remove(...ids: Array<string | number>): string | null {
    return this.send({ removals: ids });
  }
  /** Replaces the subscription; kept and re-sent on every reconnect. */
  subscribe(subscription: Subscription): string | null {
    this.subscription = subscription;
    return this.send({ subscribe: subscription });
  }

  complete(action: Action__Output): string | null {
    return this.result(action, "OUTCOME_COMPLETED", 0, "");
  }
  fail(action: Action__Output, reason: string): string | null {
    return this.result(action, "OUTCOME_FAILED", 0, reason);
  }
  /** Progress 0..1; each report restarts the action's timeout in the daemon. */
  progress(action: Action__Output, fraction: number): string | null {
    return this.result(action, "OUTCOME_PROGRESS", Math.min(1, Math.max(0, fraction)), "");
  }

  /** Ends the stream for good (no reconnect); resolves when it has ended. */
  close(): Promise<void> {
    this.closing = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const call = this.call;
    if (!call) {
      this.emit("closed");
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.once("closed", () => resolve());
      call.end();
      // The daemon ends the stream once it reads the half-close; cancel if it does not.
      setTimeout(() => call.cancel(), 1_000).unref();
    });
  }

  private result(action: Action__Output, outcome: string, progress: number, reason: string) {
    return this.send({
      results: [
        { agent: action.agent, intention: action.intention, outcome: outcome as never, progress, reason },
      ],
    });
  }

  private receive(message: ServerMessage__Output): void {
    if (message.welcome && !this.welcome) {
      this.welcome = message.welcome;
      this.backoff.reset();
      this.emit("welcome", message.welcome);
    }
    const stored = BigInt(message.stored_seq || "0");
    if (stored > this.stored) {
      this.stored = stored;
      this.emit("stored", this.storedSeq);
    }
    this.emit("message", message);
    for (const action of message.actions) this.emit("action", action);
    for (const event of message.events) this.emit("event", event);
  }

  private ended(call: ConnectCall, status: grpc.StatusObject): void {
    if (call !== this.call) return;
    this.call = null;
    this.welcome = null;
    if (this.closing) {
      this.emit("closed");
      return;
    }
    const disconnect: Disconnect = { code: status.code, details: status.details };
    this.emit("disconnected", disconnect);
    const delayMs = this.backoff.next();
    this.emit("reconnecting", { attempt: this.backoff.attempts, delayMs });
    this.timer = setTimeout(() => {
      this.timer = null;
      this.start();
    }, delayMs);
  }
}
