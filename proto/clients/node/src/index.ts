// npcd-client: a Node.js client for npcd (see README.md beside package.json).
export { Backoff, BackoffOptions } from "./backoff";
export { NpcdClient, NpcdClientOptions, NpcdError, PROTO_PATH } from "./client";
export { Disconnect, GameStream } from "./game_stream";
export type { Action__Output as Action } from "./generated/npc/v1/Action";
export type { Entity } from "./generated/npc/v1/Entity";
export type { Event__Output as Event } from "./generated/npc/v1/Event";
export type { Param } from "./generated/npc/v1/Param";
export type { ServerMessage__Output as ServerMessage } from "./generated/npc/v1/ServerMessage";
export type { GetStatsResponse__Output as Stats } from "./generated/npc/v1/GetStatsResponse";
export type { Subscription } from "./generated/npc/v1/Subscription";
export type { Welcome__Output as Welcome } from "./generated/npc/v1/Welcome";
export type { WorldUpdate } from "./generated/npc/v1/WorldUpdate";
