// NpcdClient: one channel to npcd, its admin calls as promises, and game streams
// (GameStream) that own agents, receive their actions and report results.
//
// Admin calls wait for the daemon's next tick (the tick thread answers them), so a deadline
// must be at least one tick (100 ms at the default 10 ticks/s); a call that ends with
// DEADLINE_EXCEEDED may still take effect at that tick.
import * as path from "path";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";

import { Backoff, BackoffOptions } from "./backoff";
import { GameStream } from "./game_stream";
import type { ProtoGrpcType } from "./generated/npc";
import type { NpcSimClient } from "./generated/npc/v1/NpcSim";
import type { Entity } from "./generated/npc/v1/Entity";
import type { GetAgentResponse__Output } from "./generated/npc/v1/GetAgentResponse";
import type { GetPlanTraceRequest } from "./generated/npc/v1/GetPlanTraceRequest";
import type { GetPlanTraceResponse__Output } from "./generated/npc/v1/GetPlanTraceResponse";
import type { GetStealthMeterResponse__Output } from "./generated/npc/v1/GetStealthMeterResponse";
import type { Param } from "./generated/npc/v1/Param";
import type { ProgramIntentionResponse__Output } from "./generated/npc/v1/ProgramIntentionResponse";
import type { ReloadDefinitionsResponse__Output } from "./generated/npc/v1/ReloadDefinitionsResponse";
import type { SetPlannerValueRequest } from "./generated/npc/v1/SetPlannerValueRequest";
import type { SetSensorsRequest } from "./generated/npc/v1/SetSensorsRequest";
import type { Signal } from "./generated/npc/v1/Signal";
import type { SpawnAgentResponse__Output } from "./generated/npc/v1/SpawnAgentResponse";
import type { GetStatsResponse__Output } from "./generated/npc/v1/GetStatsResponse";

/** Where the proto the package was built against lives (copied in by `npm run proto`). */
export const PROTO_PATH = path.join(__dirname, "..", "..", "proto", "npc", "v1", "npc.proto");

export interface NpcdClientOptions {
  /** "host:port" of the daemon, e.g. "127.0.0.1:50051". */
  target: string;
  /** Bearer token (the daemon's auth_token / NPCD_AUTH_TOKEN); sent on every call. */
  token?: string;
  /** TLS: PEM root certificates to trust; without them the channel is plaintext. */
  rootCerts?: Buffer;
  /** Deadline of admin calls, milliseconds; at least one tick. Default 5,000. */
  deadlineMs?: number;
  /** Reconnect delays of game streams. */
  backoff?: BackoffOptions;
}

/** A failed admin call: the gRPC status code name and the daemon's message. */
export class NpcdError extends Error {
  constructor(
    readonly method: string,
    readonly code: grpc.status,
    readonly details: string,
  ) {
    super(`${method}: ${grpc.status[code]}: ${details}`);
    this.name = "NpcdError";
  }
  /** "NOT_FOUND", "INVALID_ARGUMENT", ... */
  get codeName(): string {
    return grpc.status[this.code];
  }
}

// The generated stub's methods are overloaded, which defeats inference: each call names
// its reply type and the wrapper's parameters type the request.
type UnaryMethod = (
  request: object,
  metadata: grpc.Metadata,
  options: grpc.CallOptions,
  callback: (error: grpc.ServiceError | null, reply?: unknown) => void,
) => grpc.ClientUnaryCall;

const LOADER_OPTIONS: protoLoader.Options = {
  keepCase: true,
  longs: String, // 64-bit ids as decimal strings: no precision lost above 2^53
  enums: String,
  defaults: true,
  oneofs: true,
};

export class NpcdClient {
  readonly stub: NpcSimClient;
  private readonly options: NpcdClientOptions;

  constructor(options: NpcdClientOptions) {
    this.options = options;
    const definition = protoLoader.loadSync(PROTO_PATH, LOADER_OPTIONS);
    const proto = grpc.loadPackageDefinition(definition) as unknown as ProtoGrpcType;
    const credentials = options.rootCerts
      ? grpc.credentials.createSsl(options.rootCerts)
      : grpc.credentials.createInsecure();
    this.stub = new proto.npc.v1.NpcSim(options.target, credentials);
  }

  /** Metadata every call carries: the bearer token, when there is one. */
  metadata(): grpc.Metadata {
    const metadata = new grpc.Metadata();
    if (this.options.token) metadata.set("authorization", `Bearer ${this.options.token}`);
    return metadata;
  }

  /** Opens a game stream (Connect) that reconnects with backoff until closed. */
  openStream(): GameStream {
    const stream = new GameStream(
      () => this.stub.Connect(this.metadata()),
      new Backoff(this.options.backoff),
    );
    stream.start();
    return stream;
  }

  /** Resolves once the channel is ready, or rejects after `timeoutMs`. */
  waitForReady(timeoutMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      this.stub.waitForReady(Date.now() + timeoutMs, (error) => (error ? reject(error) : resolve()));
    });
  }

  close(): void {
    this.stub.close();
  }

  // Admin calls. Failures reject with NpcdError (NOT_FOUND, INVALID_ARGUMENT, ...).

  async spawnAgent(agent: Entity): Promise<string> {
    const reply = await this.unary<SpawnAgentResponse__Output>(this.stub.SpawnAgent, "SpawnAgent", { agent });
    return reply.id;
  }
  async despawnAgent(id: string | number): Promise<void> {
    await this.unary<unknown>(this.stub.DespawnAgent, "DespawnAgent", { id });
  }
  /** The agent's debug view, as the daemon's GetAgent reply. */
  getAgent(id: string | number): Promise<GetAgentResponse__Output> {
    return this.unary<GetAgentResponse__Output>(this.stub.GetAgent, "GetAgent", { id });
  }
  getStats(): Promise<GetStatsResponse__Output> {
    return this.unary<GetStatsResponse__Output>(this.stub.GetStats, "GetStats", {});
  }
  async sendSignal(signal: Signal): Promise<void> {
    await this.unary<unknown>(this.stub.SendSignal, "SendSignal", { signal });
  }
  async setBehaviorVariable(agent: string | number, name: string, value: boolean): Promise<void> {
    await this.unary<unknown>(this.stub.SetBehaviorVariable, "SetBehaviorVariable", { agent, name, value });
  }
  async setSensors(request: SetSensorsRequest): Promise<void> {
    await this.unary<unknown>(this.stub.SetSensors, "SetSensors", request);
  }
  getStealthMeter(player: string | number): Promise<GetStealthMeterResponse__Output> {
    return this.unary<GetStealthMeterResponse__Output>(this.stub.GetStealthMeter, "GetStealthMeter", { player });
  }
  async wakePlace(place: string, delaySeconds = 0): Promise<void> {
    await this.unary<unknown>(this.stub.WakePlace, "WakePlace", { place, delay_s: delaySeconds });
  }
  /** Programs an action on an agent's intentions; resolves to the intention id. */
  async programIntention(
    agent: string | number,
    action: string,
    params: Param[] = [],
    delaySeconds = 0,
  ): Promise<string> {
    const reply = await this.unary<ProgramIntentionResponse__Output>(this.stub.ProgramIntention, "ProgramIntention", {
      agent,
      action,
      params,
      delay_s: delaySeconds,
    });
    return reply.intention;
  }
  async cancelIntention(agent: string | number, intention: string | number): Promise<void> {
    await this.unary<unknown>(this.stub.CancelIntention, "CancelIntention", { agent, intention });
  }
  async addInfluence(agent: string | number, influence: string): Promise<void> {
    await this.unary<unknown>(this.stub.AddInfluence, "AddInfluence", { agent, influence });
  }
  async removeInfluence(agent: string | number, influence: string): Promise<void> {
    await this.unary<unknown>(this.stub.RemoveInfluence, "RemoveInfluence", { agent, influence });
  }
  async setPlannerValue(request: SetPlannerValueRequest): Promise<void> {
    await this.unary<unknown>(this.stub.SetPlannerValue, "SetPlannerValue", request);
  }
  getPlanTrace(request: GetPlanTraceRequest): Promise<GetPlanTraceResponse__Output> {
    return this.unary<GetPlanTraceResponse__Output>(this.stub.GetPlanTrace, "GetPlanTrace", request);
  }
  reloadDefinitions(): Promise<ReloadDefinitionsResponse__Output> {
    return this.unary<ReloadDefinitionsResponse__Output>(this.stub.ReloadDefinitions, "ReloadDefinitions", {});
  }

  private unary<Res>(method: UnaryMethod, name: string, request: object): Promise<Res> {
    const deadline = Date.now() + (this.options.deadlineMs ?? 5_000);
    return new Promise((resolve, reject) => {
      method.call(this.stub, request, this.metadata(), { deadline }, (error, reply) => {
        if (error) reject(new NpcdError(name, error.code, error.details));
        else resolve(reply as Res);
      });
    });
  }
}
